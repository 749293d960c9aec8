"""Gap categories for tool tests: one cause per non-pass, from the most basic upward."""

from __future__ import annotations

from typing import Any

from mcptest.grade.diagnose import gap_category
from mcptest.report.models import AssertionResult, JudgeDetail


def a(target: str, matcher: str, status: str, *, judge: bool = False,
      message: str | None = None) -> AssertionResult:
    detail = JudgeDetail(kind="llm-judge", score=0.2, threshold=0.7) if judge else None
    return AssertionResult(index=0, target=target, matcher=matcher, status=status,  # type: ignore[arg-type]
                           judge=detail, message=message)


OK: dict[str, Any] = {"result": {"content": [{"type": "text", "text": "hi"}]}}
TOOL_ERROR: dict[str, Any] = {"result": {"content": [], "isError": True}}


def test_passing_and_deferred_have_no_gap() -> None:
    assert gap_category("passed", [a("result", "exact", "passed")], OK) is None
    assert gap_category("deferred", [a("result", "llm-judge", "deferred")], OK) is None


def test_a_failed_check_on_the_answer_is_shape_or_tool_error() -> None:
    assert gap_category("failed", [a("result.content", "exact", "failed")], OK) == "shape"
    assert gap_category("failed", [a("result.content", "exact", "failed")], TOOL_ERROR) == "tool-error"


def test_a_failed_judge_is_judgment() -> None:
    got = gap_category("failed", [a("result", "exact", "passed"),
                              a("result", "llm-judge", "failed", judge=True)], OK)
    assert got == "judgment"


def test_a_failed_jury_reader_is_judge_reliability_not_shape() -> None:
    got = gap_category("failed", [a("result", "llm-jury", "passed", judge=True),
                              a("jury.agreement", "schema", "failed")], OK)
    assert got == "judge-reliability"


def test_budget_skip() -> None:
    got = gap_category("skipped", [a("result", "llm-judge", "skipped", message="budget: cap")], OK)
    assert got == "budget"
