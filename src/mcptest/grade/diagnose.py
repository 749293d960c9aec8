"""Gap categories (SPEC §8): why a test did not pass, in one word a team can act on."""

from __future__ import annotations

from typing import Any

from mcptest.report.models import AssertionResult, GapCategory, Status

BUDGET_PREFIX = "budget"

ADVICE: dict[str, str] = {
    "transport": "A server was unreachable or crashed: check its command/URL and its stderr.",
    "protocol": "A server sent malformed MCP: check its SDK version and what it writes to stdout.",
    "tool-error": "Tools answered with isError or a JSON-RPC error: look at the tool's own logs.",
    "shape": "Deterministic checks failed: the tool's output changed shape or value.",
    "judgment": "The judges failed the answers: read their reasons before changing the rubric.",
    "judge-reliability": "Judges disagreed, errored or were inconclusive: a person should review.",
    "budget": "The cost cap stopped judge calls: raise --max-cost or cut repetitions.",
    "environment": "Something was missing (a command, an API key): fix the CI environment.",
}


def is_tool_error(produced: dict[str, Any]) -> bool:
    result = produced.get("result")
    return "error" in produced or (isinstance(result, dict) and result.get("isError") is True)


def classify(
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
    if environment_error:
        return "environment"
    if protocol_error:
        return "protocol"
    if transport_error is not None:
        return "transport"
    if any(a.status == "skipped" and (a.message or "").startswith(BUDGET_PREFIX)
           for a in assertions):
        return "budget"
    llm = [a for a in assertions if a.judge is not None]
    if any(a.status == "failed" and a.judge is None and a.matcher not in ("llm-judge", "llm-jury")
           for a in assertions):
        return "tool-error" if produced and is_tool_error(produced) else "shape"
    if any(a.status == "error" for a in llm) or any(
        a.judge and a.judge.jury and (a.judge.jury.escalate or a.judge.jury.verdict ==
                                      "inconclusive") for a in llm if a.status != "passed"
    ):
        return "judge-reliability"
    if any(a.status == "failed" and (a.message or "").startswith("no judge") for a in assertions):
        return "environment"
    if any(a.status == "failed" for a in llm):
        return "judgment"
    if any(a.status == "error" for a in assertions):
        return "judge-reliability"
    return "tool-error" if produced and is_tool_error(produced) else "shape"
