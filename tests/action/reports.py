"""Small canonical reports for the Action's tests (built with the real report models)."""

from __future__ import annotations

from mcptest.report.models import (
    AssertionResult,
    Counts,
    JudgeDetail,
    JuryAnalytics,
    Location,
    Report,
    Status,
    Summary,
    TestResult,
    ToolInfo,
)

SUITE = "suites/demo.yml"


def _test(i: int, status: Status, message: str = "expected 5, got 4") -> TestResult:
    assertion = AssertionResult(
        index=0, target="result.structuredContent.result", matcher="exact", spec={"exact": 5},
        status=status, message=None if status == "passed" else message,
        location=Location(file=SUITE, line=10 + 3 * i, column=9),
    )
    return TestResult(
        id=f"{SUITE}::tool::t{i}", name=f"test {i}", suite_file=SUITE,
        location=Location(file=SUITE, line=8 + 3 * i, column=5), status=status,
        assertions=[assertion],
    )


def make_report(statuses: list[Status], *, message: str = "expected 5, got 4",
                exit_code: int | None = None, cost: float = 0.0125) -> Report:
    """One test per status, in order; counts and exit code follow from them."""
    tests = [_test(i, s, message) for i, s in enumerate(statuses)]
    counts = Counts(total=len(tests), **{s: statuses.count(s) for s in set(statuses)})
    if exit_code is None:
        exit_code = 1 if counts.failed + counts.error else (4 if counts.skipped else 0)
    return Report(
        tool=ToolInfo(version="0.1.0"), started_at="2026-11-22T02:00:00Z",
        finished_at="2026-11-22T02:00:01Z", suites=[SUITE], tests=tests,
        summary=Summary(counts=counts, duration_ms=1000.0, exit_code=exit_code,
                        cost_usd=cost, max_cost_usd=0.5),
    )


def escalated_pass() -> TestResult:
    """A jury test that passed but whose jurors disagreed (escalated)."""
    jury = JuryAnalytics(
        agreement=0.2, agreement_raw=0.2, units=3, confidence="low", escalate=True,
        same_family=False, decisive=3, passed_jurors=2, passed_fraction=0.67, quorum=0.6,
        verdict="passed",
    )
    return _test(99, "passed").model_copy(update={
        "name": "release note reads well",
        "assertions": [AssertionResult(
            index=0, target="result.content[0].text", matcher="llm-jury", status="passed",
            judge=JudgeDetail(kind="llm-jury", jury=jury),
            location=Location(file=SUITE, line=40, column=9),
        )],
    })
