"""One row from a repeated test's repetitions: pass count, pass rate, score spread, verdict.

The verdict under repeats (docs/baseline.md, "Repeats"): a test whose repetitions all agree
keeps that status; one whose repetitions disagree is `flaky`, and it fails the run only when its
pass rate is below `min_pass_rate` (default 1.0: any failing repetition fails). Skipped
repetitions (an interrupted run) are kept but not counted.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb
from statistics import fmean, stdev

from mcptest.report.models import PassAtK, RepeatStats, Status, TestResult
from mcptest.report.scores import row_score

DEFAULT_MIN_PASS_RATE = 1.0
_PASSING = ("passed", "deferred")


@dataclass(frozen=True)
class RepeatOptions:
    repeat: int = 1
    """Repetitions of a test without its own `repeat:`."""
    min_pass_rate: float = DEFAULT_MIN_PASS_RATE
    cache_repeats: bool = False
    """Let repetitions after the first read the judge cache."""
_UNCOUNTED = ("skipped", "not_yet_available")


def _agreed(counted: list[TestResult]) -> Status:
    statuses = {r.status for r in counted}
    if len(statuses) == 1:
        return counted[0].status
    if statuses <= set(_PASSING):
        return "passed"
    if not statuses & set(_PASSING):
        return "failed" if "failed" in statuses else "error"
    return "flaky"


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimator of pass@k from n runs of which c passed: 1 - C(n-c, k) / C(n, k)
    (Chen et al. 2021; docs/agents.md, "Repeats and pass@k"). Needs 1 ≤ k ≤ n."""
    if not 1 <= k <= n:
        raise ValueError(f"pass@{k} needs 1 ≤ k ≤ n (n = {n})")
    return 1.0 - comb(n - c, k) / comb(n, k)


def repeat_stats(counted: list[TestResult], min_pass_rate: float,
                 ks: tuple[int, ...] = ()) -> RepeatStats:
    passed = sum(1 for r in counted if r.status in _PASSING)
    at_k = [PassAtK(k=k, value=round(pass_at_k(len(counted), passed, k), 6))
            for k in ks if k <= len(counted)]
    rate = passed / len(counted) if counted else 0.0
    scores = [s for r in counted if (s := row_score(r)) is not None]
    return RepeatStats(
        runs=len(counted), passed=passed, pass_rate=round(rate, 6), min_pass_rate=min_pass_rate,
        met=bool(counted) and rate >= min_pass_rate,
        score_mean=round(fmean(scores), 6) if scores else None,
        score_min=min(scores) if scores else None, score_max=max(scores) if scores else None,
        score_stdev=round(stdev(scores), 6) if len(scores) >= 2 else None,
        pass_at_k=at_k or None)


def merge_repetitions(reps: list[TestResult], min_pass_rate: float,
                      ks: tuple[int, ...] = ()) -> TestResult:
    """The row of a repeated test; the first repetition's detail stays on top for display.
    `ks`: the k of its pass@k (those above the counted runs are left out)."""
    counted = [r for r in reps if r.status not in _UNCOUNTED]
    first = reps[0]
    if not counted:
        return first.model_copy(update={"repetitions": reps})
    stats = repeat_stats(counted, min_pass_rate, ks)
    status = _agreed(counted)
    update: dict[str, object] = {
        "status": status, "repeat": stats, "repetitions": reps,
        "duration_ms": round(sum(r.duration_ms for r in reps), 3),
        "cost_usd": round(sum(r.cost_usd for r in reps), 8),
        "cost_known": all(r.cost_known for r in reps),
        "cache_hits": sum(r.cache_hits for r in reps),
    }
    if status == "flaky":
        shown = next(r for r in counted if r.status not in _PASSING)
        update |= {
            "gap": "flaky", "assertions": shown.assertions, "judge": shown.judge,
            "response": shown.response,
            "message": (f"flaky: passed {stats.passed} of {stats.runs} repetitions "
                        f"(pass rate {stats.pass_rate:.0%}, min_pass_rate "
                        f"{min_pass_rate:.0%})")}
    elif status != first.status:
        update["gap"] = next((r.gap for r in counted if r.gap), None)
    return first.model_copy(update=update)
