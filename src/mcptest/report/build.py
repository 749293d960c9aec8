"""Run state → the canonical report, and the exit code that follows from it. Pure."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mcptest.exit_codes import ExitCode
from mcptest.report.cascade_summary import cascade_summary
from mcptest.report.corrections import judge_corrections, row_corrections
from mcptest.report.models import (
    Comparison,
    Counts,
    LintFinding,
    Report,
    RunAgreement,
    ServerReport,
    ShardInfo,
    Summary,
    TestResult,
    ToolInfo,
)
from mcptest.report.scores import measured
from mcptest.version import __version__


@dataclass(frozen=True)
class JudgeTotals:
    """What the judge engine spent; zeros on a run without judges."""

    calls: int = 0
    cache_hits: int = 0
    cost_usd: float = 0.0
    max_cost_usd: float | None = None
    budget_stopped: bool = False
    projected_calls: int = 0
    cost_bound_usd: float | None = None
    run_agreement: float | None = None
    run_agreement_detail: RunAgreement | None = None
    run_agreement_labels: float | None = None


def count(tests: list[TestResult]) -> Counts:
    c = Counter(t.status for t in tests)
    return Counts(
        total=len(tests), passed=c["passed"], failed=c["failed"], error=c["error"],
        skipped=c["skipped"], deferred=c["deferred"], not_yet_available=c["not_yet_available"],
        flaky=c["flaky"],
    )


def deferred_judges(tests: list[TestResult]) -> int:
    """Votes of judges that could not be reached, over every judged assertion and eval."""
    details = [a.judge for t in tests for a in t.assertions] + [t.judge for t in tests]
    votes = [v for d in details if d is not None for v in d.votes]
    votes += [v for d in details if d is not None and d.escalation is not None
              for step in d.escalation.tiers if not step.decided for v in step.votes]
    return sum(1 for v in votes if v.deferred)


def flaky_failed(tests: list[TestResult]) -> bool:
    """A flaky row fails the run when its gate was not met (`repeat.met`: by default the lower
    end of its pass rate's interval is below its `min_pass_rate`)."""
    return any(t.status == "flaky" and (t.repeat is None or not t.repeat.met) for t in tests)


def exit_code_for(
    counts: Counts, *, servers_not_ready: bool, budget_stopped: bool, interrupted: bool = False,
    internal_error: bool = False, flaky_failed: bool = False,
) -> ExitCode:
    """docs/decisions.md "Exit codes": internal error (70), interrupted (130), not ready (3),
    failed (1), budget (5), skipped (4).

    A server that never became ready wins over test failures so CI can tell "retry" from "fix";
    a bug of ours wins over everything, so it is never read as a test verdict.
    """
    if internal_error:
        return ExitCode.INTERNAL_ERROR
    if interrupted:
        return ExitCode.INTERRUPTED
    if counts.total == 0:
        return ExitCode.NO_TESTS
    if servers_not_ready:
        return ExitCode.SERVER_NOT_READY
    if counts.failed or counts.error or flaky_failed:
        return ExitCode.TESTS_FAILED
    if budget_stopped:
        return ExitCode.POLICY_STOP
    if counts.skipped or counts.not_yet_available:
        return ExitCode.INCOMPLETE
    return ExitCode.OK


def lint_exit_code(findings: list[LintFinding], errors: list[str]) -> int:
    """`mcptest lint`: a server that could not be linted (3), an error finding not expected (1)."""
    if errors:
        return int(ExitCode.SERVER_NOT_READY)
    failing = [f for f in findings if f.level == "error" and not f.expected]
    return int(ExitCode.TESTS_FAILED if failing else ExitCode.OK)


def blocking(comparison: Comparison) -> bool:
    """Some row regressed, or its judged score fell past the gate, or (`--fail-on
    not-measured`) measured nothing."""
    return any(r.change == "regressed" or r.gated or (
        comparison.fail_on_not_measured and r.change == "not_measured") for r in comparison.rows)


def not_measured(tests: list[TestResult]) -> int:
    """Rows none of whose runs produced a verdict."""
    return sum(1 for t in tests if not measured(t))


def gated_exit_code(code: int, comparison: Comparison) -> int:
    """`--fail-on regressed` turns "tests failed" into a pass unless something regressed; a
    regression or a gated score fails a run that passed (docs/baseline.md, "Gates")."""
    failing = blocking(comparison)
    if comparison.fail_on == "regressed" and code == ExitCode.TESTS_FAILED:
        return int(ExitCode.TESTS_FAILED if failing else ExitCode.OK)
    if code == ExitCode.OK and failing:
        return int(ExitCode.TESTS_FAILED)
    return code


def with_internal_error(report: Report, message: str) -> Report:
    """`report` marked with a bug of ours met after its rows were graded (exit 70): the rows
    are still reported, never read as a test verdict."""
    summary = report.summary.model_copy(update={
        "exit_code": int(ExitCode.INTERNAL_ERROR), "internal_error": message})
    return report.model_copy(update={"summary": summary})


def recomputed(report: Report) -> Report:
    """A report read back, its summary counted again from its rows: counts, gaps, deferred and
    uncalibrated judges, and the exit code (the file's own are never taken on faith)."""
    s, tests = report.summary, report.tests
    servers_failed = any(sv.status == "failed" for sv in report.servers)
    if report.lint is not None and not tests:
        code = (ExitCode.SERVER_NOT_READY if servers_failed
                else lint_exit_code(report.lint.findings, []))
    else:
        code = exit_code_for(count(tests), servers_not_ready=servers_failed,
                             budget_stopped=s.budget_stopped, interrupted=s.interrupted is not None,
                             internal_error=s.internal_error is not None,
                             flaky_failed=flaky_failed(tests))
        if report.lint is not None and code == ExitCode.OK:
            code = lint_exit_code(report.lint.findings, [])
    if report.comparison is not None:
        code = gated_exit_code(code, report.comparison)
    if s.fail_on_not_measured and code == ExitCode.OK and not_measured(tests):
        code = ExitCode.TESTS_FAILED
    gaps = Counter(t.gap for t in tests if t.gap)
    summary = s.model_copy(update={
        "counts": count(tests), "exit_code": int(code), "deferred_judges": deferred_judges(tests),
        "not_measured": not_measured(tests),
        "gaps": dict(sorted(gaps.items(), key=lambda kv: (-kv[1], kv[0]))),
        "uncalibrated": uncalibrated(tests), "cascade": cascade_summary(tests)})
    return report.model_copy(update={"summary": summary})


def with_corrections(tests: list[TestResult]) -> list[TestResult]:
    """Each judged row with its corrected rates (docs/statistics.md)."""
    out = []
    for t in tests:
        found = row_corrections(t)
        out.append(t.model_copy(update={"corrected": found}) if found or t.corrected else t)
    return out


def uncalibrated(tests: list[TestResult]) -> int:
    """Judged verdicts that were advisory: their judge has no valid calibration record."""
    return sum(1 for t in tests for c in (t.calibration, *(a.calibration for a in t.assertions))
               if c is not None and c.advisory)


def build_report(
    *,
    suites: list[str],
    tests: list[TestResult],
    servers: list[ServerReport],
    started_at: str,
    finished_at: str,
    duration_ms: float,
    judge: JudgeTotals,
    interrupted: str | None = None,
    internal_error: str | None = None,
    warnings: list[str] | None = None,
    shard: ShardInfo | None = None,
) -> Report:
    tests = with_corrections(tests)
    counts = count(tests)
    gaps = Counter(t.gap for t in tests if t.gap)
    code = exit_code_for(
        counts,
        servers_not_ready=any(s.status == "failed" for s in servers),
        budget_stopped=judge.budget_stopped,
        interrupted=interrupted is not None,
        internal_error=internal_error is not None,
        flaky_failed=flaky_failed(tests),
    )
    summary = Summary(
        counts=counts,
        duration_ms=round(duration_ms, 1),
        exit_code=int(code),
        cost_usd=round(judge.cost_usd, 6),
        max_cost_usd=judge.max_cost_usd,
        budget_stopped=judge.budget_stopped,
        judge_calls=judge.calls,
        cache_hits=judge.cache_hits,
        deferred_judges=deferred_judges(tests),
        not_measured=not_measured(tests),
        projected_judge_calls=judge.projected_calls,
        cost_bound_usd=judge.cost_bound_usd,
        gaps=dict(sorted(gaps.items(), key=lambda kv: (-kv[1], kv[0]))),
        run_agreement=judge.run_agreement,
        run_agreement_detail=judge.run_agreement_detail,
        run_agreement_labels=judge.run_agreement_labels,
        uncalibrated=uncalibrated(tests),
        cascade=cascade_summary(tests),
        corrected=judge_corrections(tests),
        interrupted=interrupted,
        internal_error=internal_error,
    )
    return Report(
        tool=ToolInfo(version=__version__),
        started_at=started_at,
        finished_at=finished_at,
        suites=suites,
        servers=servers,
        tests=tests,
        summary=summary,
        warnings=warnings or [],
        shard=shard,
    )
