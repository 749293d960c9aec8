"""Report rows and reports built by hand for the comparison tests."""

from __future__ import annotations

from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.models import JudgeDetail, Location, RepeatStats, Report, Status, TestResult


def row(id: str, status: Status = "passed", *, definition: str = "h", runs: int | None = None,
        passed: int | None = None, score: float | None = None, cost: float = 0.0,
        cost_known: bool = True, duration: float = 10.0) -> TestResult:
    """One row; `runs`/`passed` make it a repeated row (status `flaky` when they disagree)."""
    repeat = None
    if runs is not None:
        assert passed is not None
        rate = passed / runs
        repeat = RepeatStats(runs=runs, passed=passed, pass_rate=rate, min_pass_rate=1.0,
                             met=rate >= 1.0, score_mean=score)
        status = "passed" if passed == runs else "failed" if passed == 0 else "flaky"
    judge = JudgeDetail(kind="eval", score=score) if score is not None else None
    return TestResult(id=id, name=id, suite_file="s.yml", location=Location(file="s.yml", line=1),
                      status=status, definition_hash=definition, repeat=repeat, judge=judge,
                      cost_usd=cost, cost_known=cost_known, duration_ms=duration)


def report(*rows: TestResult) -> Report:
    return build_report(suites=["s.yml"], tests=list(rows), servers=[],
                        started_at="2026-11-24T10:00:00.000Z",
                        finished_at="2026-11-24T10:00:01.000Z", duration_ms=1000.0,
                        judge=JudgeTotals(cost_usd=sum(r.cost_usd for r in rows)))
