"""Definition hashes: what a row *was* when it ran, so two runs compare like with like.

Two runs' rows share an id when the test kept its name; they are comparable only when the
definition also stayed the same: the tool or prompt, the arguments, the matchers, the rubric
(a named rubric by its body), the judge models and settings that change a verdict, and the
thresholds. Names, tags, timeouts and repeat settings are left out: they do not change what a
pass means (docs/baseline.md, "Comparable rows").
"""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcptest.plan import PlannedAssertion, PlannedTest

_NOT_DEFINITION = {"name", "tags", "timeout", "repeat", "min_pass_rate", "max_score_drop",
                   "message"}
_JUDGE_FIELDS = {"model", "base_url", "max_tokens", "temperature"}
_NEW_DEFAULTS: dict[str, object] = {"reference": None, "scoring": None, "weight": 1.0}
"""Keys added later: left out at their default so older baselines keep their hashes."""
_NEW_NESTED_DEFAULTS: dict[str, object] = {"escalate": None}
"""Keys added later inside matchers, at any depth: left out at their default, so a baseline or a
committed model cassette (docs/cassettes.md) recorded before them stays current."""


def _without_nested(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_nested(v) for k, v in value.items()
                if k not in _NEW_NESTED_DEFAULTS or v != _NEW_NESTED_DEFAULTS[k]}
    if isinstance(value, list):
        return [_without_nested(v) for v in value]
    return value


def _without_new_defaults(body: dict[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in _without_nested(body).items()
           if k not in _NEW_DEFAULTS or v != _NEW_DEFAULTS[k]}
    if isinstance(out.get("expect"), list):
        out["expect"] = [_without_new_defaults(a) if isinstance(a, dict) else a
                         for a in out["expect"]]
    return out


def _strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _strings(v)}
    if isinstance(value, list):
        return {s for v in value for s in _strings(v)}
    return set()


def _context(test: PlannedTest, body: Any) -> dict[str, Any]:
    """The suite-level settings a definition depends on: judge defaults and named rubrics."""
    suite = test.suite.suite
    judge = (suite.judge.model_dump(mode="json", include=_JUDGE_FIELDS)
             if suite.judge is not None else None)
    used = _strings(body) & set(suite.rubrics)
    rubrics = {n: suite.rubrics[n].model_dump(mode="json", exclude_defaults=True)
               for n in sorted(used)}
    return {"judge": judge, "rubrics": rubrics}


def _digest(payload: Any) -> str:
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_hash(test: PlannedTest) -> str:
    """The definition hash of one planned row (a matrix cell hashes its own coordinates)."""
    body = _without_new_defaults(
        test.spec.model_dump(mode="json", by_alias=True, exclude=_NOT_DEFINITION))
    return _digest({"kind": test.kind, "spec": body, "cell": list(test.cell),
                    "model": test.model, "prompt": test.prompt, **_context(test, body)})


def assertion_hash(test: PlannedTest, planned: PlannedAssertion) -> str:
    """The definition hash of one assertion of a row (its test's subject included)."""
    body = _without_new_defaults(
        planned.assertion.model_dump(mode="json", by_alias=True, exclude=_NOT_DEFINITION))
    return _digest({"test": test_hash(test), "assertion": body, **_context(test, body)})
