"""Gap categories (docs/cascade.md): why a test did not pass, in one word a team can act on.

Every non-pass gets exactly one category, decided from the most basic cause upward: the CI
environment, the server's transport and protocol, the suite itself (a tool the server does not
offer, a target path the answer does not have), the tool's own error, a deterministic shape
check, the budget, then the judges — unreliable judges (errors, abstentions, inconclusive or
escalated juries), then judges whose calibration against human labels puts the failure in doubt,
before a clear judgment. The advice shown per category lives with
the reporters (`mcptest.reporters.display_words.GAP_ADVICE`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.report.judge_models import JUDGE_REQUIRED
from mcptest.suite.models.matcher_kinds import LLM_MATCHER_KINDS

if TYPE_CHECKING:
    from mcptest.report.models import (
        AssertionResult,
        CalibrationNote,
        GapCategory,
        JudgeDetail,
        Status,
    )

BUDGET_PREFIX = "budget"
TARGET_MISSING = "target not found: "
"""The start of an assertion's message when its target is not in a normal answer (absent.py)."""
_ENVIRONMENT_HINTS = (JUDGE_REQUIRED, "agent model required but unavailable",
                      "no known price", "no judge model", "judge unreachable")
UNREACHABLE = "judge unreachable: "
"""In an error's message (a lone judge's, a jury's last): no request was delivered."""
UNSENT = "the request could not be sent: "
"""In a judge error's message: the request could not be formed (a key with a newline)."""
_NOT_DELIVERED = (UNREACHABLE, UNSENT)


def is_tool_error(produced: dict[str, Any]) -> bool:
    result = produced.get("result")
    return "error" in produced or (isinstance(result, dict) and result.get("isError") is True)


def is_malformed(produced: dict[str, Any] | None) -> bool:
    """A tools/call result that breaks the MCP shape (no `content` list): the server's fault."""
    if not produced or "result" not in produced:
        return False
    result = produced["result"]
    return not isinstance(result, dict) or not isinstance(result.get("content"), list)


def _unreliable(detail: JudgeDetail | None, message: str | None) -> bool:
    """Judges that cannot be trusted this time: escalated, inconclusive, abstained, erroring."""
    text = (message or "").lower()
    if text.startswith(("inconclusive", "no decisive", "judge error")):
        return True
    if detail is None:
        return False
    jury = detail.jury
    return jury is not None and (jury.escalate or jury.verdict == "inconclusive")


def miscalibrated(c: CalibrationNote | None) -> bool:
    """A failure the judge's calibration puts in doubt: the judge had to be calibrated and is
    not (--require-calibration), or its record shows a false-fail rate above the gate's bound
    (docs/calibration.md)."""
    if c is None:
        return False
    if c.state != "calibrated":
        return True
    return (c.false_fail_rate is not None and c.max_false_fail is not None
            and c.false_fail_rate > c.max_false_fail)


def _reads_jury(a: AssertionResult) -> bool:
    """`jury.*` targets check the judges' agreement, not the tool's answer."""
    return a.target.split(".", 1)[0].split("[", 1)[0] == "jury"


def gap_category(
    status: Status,
    assertions: list[AssertionResult],
    produced: dict[str, Any] | None,
    *,
    transport_error: str | None = None,
    environment_error: bool = False,
    protocol_error: bool = False,
) -> GapCategory | None:
    """One category for a non-passing test; None for passed, deferred and not-yet-available."""
    if status in ("passed", "deferred", "not_yet_available"):
        return None
    assertions = [a for a in assertions if not a.outside_verdict]
    if environment_error:
        return "environment"
    if protocol_error:
        return "protocol"
    if transport_error is not None:
        return "transport"
    if is_malformed(produced):
        return "protocol"
    messages = [(a.message or "") for a in assertions if a.status != "passed"]
    if any(m.startswith(_ENVIRONMENT_HINTS) for m in messages):
        return "environment"
    deterministic_failed = any(
        a.status == "failed" and a.matcher not in LLM_MATCHER_KINDS and not _reads_jury(a)
        for a in assertions)
    # A judged assertion that failed without any judge answer failed before the judges: its
    # target was missing, or the structural tier stopped it.
    structural_failed = any(
        a.status == "failed" and a.matcher in LLM_MATCHER_KINDS and a.judge is None
        and not (a.message or "").startswith(_ENVIRONMENT_HINTS) for a in assertions)
    if any(a.status == "failed" and (a.message or "").startswith(TARGET_MISSING)
           for a in assertions):
        return "suite"  # a path the answer does not have: a typo more often than a change
    if deterministic_failed or structural_failed:
        return "tool-error" if produced and is_tool_error(produced) else "shape"
    if any(a.status == "skipped" and (a.message or "").startswith(BUDGET_PREFIX)
           for a in assertions):
        return "budget"
    judged = [a for a in assertions if a.matcher in LLM_MATCHER_KINDS and a.status != "passed"]
    if any(a.status == "error" and any(w in (a.message or "") for w in _NOT_DELIVERED)
           for a in judged):
        return "environment"
    if any(a.status == "error" or _unreliable(a.judge, a.message) for a in judged):
        return "judge-reliability"
    if any(a.status == "failed" and _reads_jury(a) for a in assertions):
        return "judge-reliability"  # e.g. `jury.agreement` below its bound: the judges split
    if any(a.status == "failed" and miscalibrated(a.calibration) for a in judged):
        return "judge-calibration"
    if any(a.status == "failed" for a in judged):
        return "judgment"
    if any(a.status == "error" for a in assertions):
        return "judge-reliability"
    if any(a.weight is not None and a.matcher in LLM_MATCHER_KINDS for a in assertions):
        return "judgment"  # a weighted score the judges' scores kept under its threshold
    return "tool-error" if produced and is_tool_error(produced) else "shape"


def classify_eval(status: Status, message: str | None, detail: JudgeDetail | None
                  ) -> GapCategory | None:
    """The category of one eval row (no assertions: the eval's own verdict)."""
    if status in ("passed", "deferred", "not_yet_available"):
        return None
    text = message or ""
    if text.startswith(_ENVIRONMENT_HINTS):
        return "environment"
    if status == "skipped" and text.startswith(BUDGET_PREFIX):
        return "budget"
    if status == "error" and any(w in text for w in _NOT_DELIVERED):
        return "environment"
    if status == "error" or _unreliable(detail, message):
        return "judge-reliability"
    return "judgment"

