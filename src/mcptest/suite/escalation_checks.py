"""Load checks of `escalate:` that need the whole suite: a cascade takes its tiers' thresholds
from a calibration record, so it needs a `calibration:` (its own or the suite's) that says where
that record is (docs/cascade.md, "Trust or escalate")."""

from __future__ import annotations

from typing import Any

from mcptest.errors import SuiteError
from mcptest.suite.positions import Positions, format_path

_KINDS = ("tools", "agents", "resources", "prompts", "lists")


def escalation_errors(data: dict[str, Any], positions: Positions) -> list[SuiteError]:
    """An `llm-judge` with `escalate:` and no `calibration:` anywhere is a load error."""
    if isinstance(data.get("calibration"), dict):
        return []
    places: list[tuple[Any, tuple[Any, ...]]] = []
    for key in _KINDS:
        tests = data.get(key)
        for i, test in enumerate(tests if isinstance(tests, list) else []):
            expect = test.get("expect") if isinstance(test, dict) else None
            places += [(a, (key, i, "expect", j)) for j, a in
                       enumerate(expect if isinstance(expect, list) else [])]
    defaults = data.get("defaults")
    expect = defaults.get("expect") if isinstance(defaults, dict) else None
    places += [(a, ("defaults", "expect", j))
               for j, a in enumerate(expect if isinstance(expect, list) else [])]
    errors = []
    for assertion, where in places:
        matcher = assertion.get("matcher") if isinstance(assertion, dict) else None
        judge = matcher.get("llm-judge") if isinstance(matcher, dict) else None
        if not isinstance(judge, dict) or not judge.get("escalate"):
            continue
        if judge.get("calibration") is None:
            path = (*where, "matcher", "llm-judge", "escalate")
            errors.append(SuiteError(
                "`escalate` needs a `calibration: {file: …}` (here or at the top of the suite): "
                "each tier's threshold comes from that record, which `mcptest calibrate "
                "--target-agreement …` writes", positions.key(path), format_path(path)))
    return errors
