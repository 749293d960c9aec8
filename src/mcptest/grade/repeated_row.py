"""One row from a repeated test's repetitions: pass count, pass rate, score spread, verdict.

The verdict under repeats (docs/baseline.md, "Repeats"): only runs that produced a verdict
count. A deferred run (its judge was never reached), a skipped one and a not-yet-available one
produced none: they are counted as runs but never as passes, and the row says "k of n scored".
A row with no scored run is **not measured**. A test whose scored runs all agree keeps that
status; one whose scored runs disagree is `flaky`, and it fails the run only when its pass rate
(or, with `min_pass_rate_on: lower_bound`, the lower end of its Wilson 95% interval) is below
`min_pass_rate` (default 1.0: any failing repetition fails).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from math import comb
from statistics import fmean, stdev
from typing import Literal

from mcptest.report.corrections import row_corrections
from mcptest.report.models import Interval, PassAtK, RepeatStats, Status, TestResult
from mcptest.report.scores import row_score
from mcptest.stats.intervals import wilson

DEFAULT_MIN_PASS_RATE = 1.0
ADAPTIVE_MOST = 10
"""Runs an adaptive row may take at most when nothing says otherwise (the fixed count it
stands in for)."""
GateOn = Literal["estimate", "lower_bound", "corrected_lower_bound"]
_UNSCORED = ("deferred", "skipped", "not_yet_available")
"""Statuses of a run that produced no verdict."""
_UNCOUNTED = ("skipped", "not_yet_available")
"""Statuses of a run that is not counted at all (an interrupted repetition)."""


@dataclass(frozen=True)
class RepeatOptions:
    repeat: int = 1
    """Repetitions of a test without its own `repeat:`."""
    min_pass_rate: float = DEFAULT_MIN_PASS_RATE
    min_pass_rate_on: GateOn = "estimate"
    """Gate on the pass rate itself, or on the lower end of its Wilson 95% interval."""
    cache_repeats: bool = False
    """Let repetitions after the first read the judge cache."""
    adaptive: int | None = None
    """`--repeat adaptive:MAX`: every test repeats adaptively, at most MAX runs (a test's own
    `repeat: adaptive` takes MAX from here, else `ADAPTIVE_MOST`)."""
    baseline_passed: dict[str, bool] = field(default_factory=dict)
    """Per row id of the baseline: whether it passed there (what adaptive repeats compare a
    first run with)."""


def _agreed(scored: list[TestResult]) -> Status:
    statuses = {r.status for r in scored}
    if len(statuses) == 1:
        return scored[0].status
    if "passed" not in statuses:
        return "failed" if "failed" in statuses else "error"
    return "flaky"


def pass_at_k(n: int, c: int, k: int) -> float:
    """The unbiased estimator of pass@k from n runs of which c passed: 1 - C(n-c, k) / C(n, k)
    (Chen et al. 2021; docs/agents.md, "Repeats and pass@k"). Needs 1 ≤ k ≤ n."""
    if not 1 <= k <= n:
        raise ValueError(f"pass@{k} needs 1 ≤ k ≤ n (n = {n})")
    return 1.0 - comb(n - c, k) / comb(n, k)


def repeat_stats(counted: list[TestResult], min_pass_rate: float,
                 ks: tuple[int, ...] = (), gate_on: GateOn = "estimate") -> RepeatStats:
    """The figures of a repeated row over its `counted` runs: the pass rate, its interval and
    pass@k over the scored ones, the score spread over the runs with a score."""
    scored = [r for r in counted if r.status not in _UNSCORED]
    passed = sum(1 for r in scored if r.status == "passed")
    n = len(scored)
    at_k = [PassAtK(k=k, value=round(pass_at_k(n, passed, k), 6)) for k in ks if k <= n]
    rate = passed / n if n else None
    ends = wilson(passed, n)
    ci = None if ends is None else Interval(low=round(ends[0], 6), high=round(ends[1], 6))
    gated = None if ci is None else (ci.low if gate_on != "estimate" else rate)
    if gate_on == "corrected_lower_bound" and ci is not None:
        fixed = row_corrections(counted[0].model_copy(update={"repetitions": counted}))
        gated = min((c.ci95.low for c in fixed), default=ci.low)
    scores = [s for r in counted if (s := row_score(r)) is not None]
    return RepeatStats(
        runs=len(counted), scored=n, passed=passed,
        pass_rate=None if rate is None else round(rate, 6), pass_rate_ci95=ci,
        min_pass_rate=min_pass_rate, min_pass_rate_on=gate_on,
        met=gated is not None and gated >= min_pass_rate - 1e-12,
        score_runs=len(scores),
        score_mean=round(fmean(scores), 6) if scores else None,
        score_min=min(scores) if scores else None, score_max=max(scores) if scores else None,
        score_stdev=round(stdev(scores), 6) if len(scores) >= 2 else None,
        pass_at_k=at_k or None)


def scored_text(stats: RepeatStats) -> str:
    """`3 of 5 runs scored` when some runs gave no verdict, else `5 runs`."""
    if stats.measured == stats.runs:
        return f"{stats.runs} runs"
    return f"{stats.measured} of {stats.runs} runs scored"


def _gate_text(stats: RepeatStats) -> str:
    rate = "n/a" if stats.pass_rate is None else f"{stats.pass_rate:.0%}"
    ci = stats.pass_rate_ci95
    bound = "" if ci is None else f", 95% CI {ci.low:.0%}–{ci.high:.0%}"
    on = {"estimate": "", "lower_bound": " (gated on the lower bound)",
          "corrected_lower_bound": " (gated on the corrected lower bound)"}[
        stats.min_pass_rate_on]
    return f"pass rate {rate}{bound}, min_pass_rate {stats.min_pass_rate:.0%}{on}"


def merge_repetitions(reps: list[TestResult], min_pass_rate: float,
                      ks: tuple[int, ...] = (), gate_on: GateOn = "estimate") -> TestResult:
    """The row of a repeated test; the first repetition's detail stays on top for display.
    `ks`: the k of its pass@k (those above the scored runs are left out)."""
    counted = [r for r in reps if r.status not in _UNCOUNTED]
    first = reps[0]
    if not counted:
        return first.model_copy(update={"repetitions": reps})
    stats = repeat_stats(counted, min_pass_rate, ks, gate_on)
    scored = [r for r in counted if r.status not in _UNSCORED]
    update: dict[str, object] = {
        "repeat": stats, "repetitions": reps,
        "duration_ms": round(sum(r.duration_ms for r in reps), 3),
        "cost_usd": round(sum(r.cost_usd for r in reps), 8),
        "cost_known": all(r.cost_known for r in reps),
        "cache_hits": sum(r.cache_hits for r in reps),
    }
    if not scored:  # not measured: whatever the runs said, none of it was a verdict
        shown = next((r for r in counted if r.status == "deferred"), counted[0])
        return first.model_copy(update=update | {
            "status": shown.status, "gap": shown.gap, "assertions": shown.assertions,
            "judge": shown.judge,
            "message": f"not measured: 0 of {stats.runs} runs scored"
                       + (f" ({shown.message})" if shown.message else "")})
    status = _agreed(scored)
    update["status"] = status
    note = "" if len(scored) == stats.runs else f" ({scored_text(stats)})"
    if status == "flaky":
        shown = next(r for r in scored if r.status != "passed")
        update |= {
            "gap": "flaky", "assertions": shown.assertions, "judge": shown.judge,
            "response": shown.response,
            "message": f"flaky: passed {stats.passed} of {stats.measured} scored repetitions"
                       f"{note} ({_gate_text(stats)})"}
    elif status == "passed" and not stats.met:
        update |= {"status": "failed", "message": (
            f"passed {stats.passed} of {stats.measured} scored repetitions{note}, but the "
            f"lower bound does not reach min_pass_rate ({_gate_text(stats)}): repeat it more")}
    elif status != first.status or note:
        base = next(r for r in scored if r.status == status)
        update |= {"gap": base.gap, "assertions": base.assertions, "judge": base.judge,
                   "message": (base.message or status) + note}
    return first.model_copy(update=update)
