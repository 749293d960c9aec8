"""Run state → the canonical report, and the exit code that follows from it. Pure."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from mcptest import __version__
from mcptest.exit_codes import ExitCode
from mcptest.report.models import (
    Counts,
    Report,
    ServerReport,
    ShardInfo,
    Summary,
    TestResult,
    ToolInfo,
)


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
    return sum(1 for d in details if d is not None for v in d.votes if v.deferred)


def flaky_failed(tests: list[TestResult]) -> bool:
    """A flaky row fails the run when its pass rate is below its `min_pass_rate`."""
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
        projected_judge_calls=judge.projected_calls,
        cost_bound_usd=judge.cost_bound_usd,
        gaps=dict(sorted(gaps.items(), key=lambda kv: (-kv[1], kv[0]))),
        run_agreement=judge.run_agreement,
        run_agreement_labels=judge.run_agreement_labels,
        uncalibrated=sum(1 for t in tests for c in (t.calibration,
                                                    *(a.calibration for a in t.assertions))
                         if c is not None and c.advisory),
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
