"""`tap`: TAP version 14, one test point per test, YAML diagnostics for every non-pass.

Status mapping: passed → `ok`; deferred → `ok` with a diagnostic note (it does not fail the run,
but it is not a pass either);
flaky → `ok` when its gate was met (`repeat.met`), else `not ok`, with its pass count;
failed/error → `not ok`; skipped → `ok … # SKIP reason`; not_yet_available → `not ok … # TODO
reason` (never a pass, never a failure). YAML values are JSON scalars and flow collections, which
YAML 1.2 reads as they are, so untrusted text cannot open a new key or end the block.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

from mcptest.reporters import DEFAULTS, RenderOptions

if TYPE_CHECKING:
    from mcptest.report.models import AssertionResult, JudgeDetail, Report, TestResult

_YAML_UNSAFE = re.compile("[\x7f-\x9f\u2028\u2029\ufeff\ud800-\udfff\ufffe\uffff]")
_LINE_BREAKS = re.compile(r"[\r\n\t\v\f\x85\u2028\u2029]+")
_CONTROL = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|[\x00-\x1f]")
_MAX_DESCRIPTION = 200
_MAX_VALUE = 4000
"""Characters kept of one free text (messages, stderr) in a diagnostic."""


def _flow(value: Any) -> str:
    """A YAML 1.2 flow value: JSON, with characters YAML will not take raw escaped."""
    if isinstance(value, str) and len(value) > _MAX_VALUE:
        value = value[:_MAX_VALUE] + f"… [{len(value) - _MAX_VALUE} more characters]"
    text = json.dumps(value, ensure_ascii=False, default=str)
    return _YAML_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _description(text: str) -> str:
    """A test-point description on one line, `#` and `\\` escaped so no directive is forged."""
    text = _CONTROL.sub("", _LINE_BREAKS.sub(" ", text))
    if len(text) > _MAX_DESCRIPTION:
        text = text[:_MAX_DESCRIPTION] + "…"
    text = text.replace("\\", "\\\\").replace("#", "\\#")
    return _YAML_UNSAFE.sub("", text).strip()


def _assertion_diag(a: AssertionResult) -> dict[str, Any]:
    diag: dict[str, Any] = {"index": a.index, "matcher": a.matcher, "target": a.target,
                            "status": a.status}
    for key in ("message", "user_message", "expected", "actual"):
        value = getattr(a, key)
        if value is not None:
            diag[key] = value
    if a.location is not None:
        diag["line"] = a.location.line
    if a.cost_usd:
        diag["cost_usd"] = a.cost_usd
    if a.cached:
        diag["cached"] = True
    return diag


def _judge_diag(judge: JudgeDetail) -> dict[str, Any]:
    diag: dict[str, Any] = {"kind": judge.kind, "score": judge.score,
                            "threshold": judge.threshold}
    if judge.jury is not None:
        diag.update(agreement=judge.jury.agreement, confidence=judge.jury.confidence,
                    escalate=judge.jury.escalate, verdict=judge.jury.verdict)
        if judge.jury.effective_jurors is not None:
            diag["effective_jurors"] = judge.jury.effective_jurors.value
    diag["votes"] = [
        {"model": v.model, "score": v.score, "error": v.error, "reason": v.reason,
         "replacement_for": v.replacement_for, "cached": v.cached}
        for v in judge.votes
    ]
    if judge.criteria:
        diag["criteria"] = [{"name": c.name, "score": c.score, "status": c.status,
                             "reason": c.reason} for c in judge.criteria]
    return diag


def _diagnostics(test: TestResult) -> list[str]:
    diag: dict[str, Any] = {"status": test.status}
    severity = {"failed": "fail", "error": "error", "not_yet_available": "todo",
                "flaky": "flaky"}
    if test.status in severity:
        diag["severity"] = severity[test.status]
    if test.message:
        diag["message"] = test.message
    if test.gap:
        diag["gap"] = test.gap
    diag["id"] = test.id
    diag["at"] = {"file": test.location.file, "line": test.location.line,
                  "column": test.location.column}
    if test.cost_usd:
        diag["cost_usd"] = test.cost_usd
    if test.cache_hits:
        diag["cache_hits"] = test.cache_hits
    if test.repeat is not None:
        diag["repeat"] = test.repeat.model_dump(exclude_none=True)
    if test.baseline is not None:
        diag["baseline"] = test.baseline.change
    problems = [_assertion_diag(a) for a in test.assertions if a.status != "passed"]
    if problems:
        diag["assertions"] = problems
    judges = [j for j in [test.judge, *(a.judge for a in test.assertions)] if j is not None]
    if judges:
        diag["judges"] = [_judge_diag(j) for j in judges]
    if test.server_stderr:
        diag["server_stderr"] = test.server_stderr
    return ["  ---", *(f"  {key}: {_flow(value)}" for key, value in diag.items()), "  ..."]


def _escalated(test: TestResult) -> bool:
    judges = [test.judge, *(a.judge for a in test.assertions)]
    return any(j is not None and j.jury is not None and j.jury.escalate for j in judges)


def _test_point(number: int, test: TestResult) -> list[str]:
    name = _description(test.name) or _description(test.id)
    reason = _description(test.message or test.status)
    tolerated = test.status == "flaky" and test.repeat is not None and test.repeat.met
    if test.status in ("passed", "deferred") or tolerated:
        line = f"ok {number} - {name}"
    elif test.status == "skipped":
        line = f"ok {number} - {name} # SKIP {reason}"
    elif test.status == "not_yet_available":
        line = f"not ok {number} - {name} # TODO {reason}"
    else:
        line = f"not ok {number} - {name}"
    if test.status == "passed" and not _escalated(test) and (
            test.baseline is None or test.baseline.change == "unchanged"):
        return [line]
    return [line, *_diagnostics(test)]


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The whole TAP stream, plan first; cost, cache hits and deferrals as closing comments."""
    lines = ["TAP version 14", f"1..{len(report.tests)}"]
    for number, test in enumerate(report.tests, start=1):
        lines.extend(_test_point(number, test))
    s = report.summary
    cap = f" of ${s.max_cost_usd:.4f} cap" if s.max_cost_usd is not None else ""
    lines.append(f"# cost ${s.cost_usd:.4f}{cap}; judge calls {s.judge_calls}; "
                 f"cache hits {s.cache_hits}; deferred {s.counts.deferred}")
    if s.budget_stopped:
        lines.append("# budget cap reached: some judge calls were not sent")
    if s.interrupted:
        lines.append(f"# interrupted: {_description(s.interrupted)}")
    return "\n".join(lines) + "\n"
