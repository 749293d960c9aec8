"""One row from a repeated test's repetitions: pass count, pass rate, score spread, verdict.

The verdict under repeats (docs/baseline.md, "Repeats"): only runs that produced a verdict
count. A deferred run (its judge was never reached), a skipped one and a not-yet-available one
produced none: they are counted as runs but never as passes, and the row says "k of n scored".
A row with no scored run is **not measured**. A test whose scored runs all agree keeps that
status; one whose scored runs disagree is `flaky`, and it fails the run only when its gate is not
met. The gate (docs/baseline.md, "The gate holds the interval") holds `min_pass_rate` against the
lower end of the row's interval by default: the judge-corrected one where a calibration record
measured its judge, else Wilson's 95% over its scored runs; `min_pass_rate_on: estimate` holds
the pass rate itself. A `min_pass_rate` of 1 (the default: any failing repetition fails) asks
every scored run to pass, which no interval can show: the count decides it.
"""

from __future__ import annotations

from math import comb
from statistics import fmean, stdev

from mcptest.grade.repeat_options import (
    DEFAULT_GATE_ON,
    GateOn,
)
from mcptest.report.corrections import row_corrections
from mcptest.report.gate_words import gate_text
from mcptest.report.models import Interval, PassAtK, RepeatStats, Status, TestResult
from mcptest.report.scores import row_score
from mcptest.stats.intervals import wilson

_UNSCORED = ("deferred", "skipped", "not_yet_available")
"""Statuses of a run that produced no verdict."""
_UNCOUNTED = ("skipped", "not_yet_available")
"""Statuses of a run that is not counted at all (an interrupted repetition)."""


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


def repeat_gate(counted: list[TestResult], passed: int, scored: int, min_pass_rate: float,
                gate_on: GateOn) -> tuple[GateOn, float] | None:
    """What the gate holds against `min_pass_rate`: (`gated_on`, its value). The lower end of
    the judge-corrected rate where a calibration record measured the row's judge (the lowest of
    its judges'), else of Wilson's interval; the pass rate itself with `estimate`, or when
    `min_pass_rate` is 1 (no interval shows a rate of 1: the count decides). None when nothing
    was scored."""
    ends = wilson(passed, scored)
    if ends is None:
        return None
    if gate_on == "estimate" or min_pass_rate >= 1.0:
        return "estimate", passed / scored
    fixed = row_corrections(counted[0].model_copy(update={"repetitions": counted}))
    lows = [c.ci95.low for c in fixed]
    if lows:
        return "corrected_lower_bound", min(lows)
    return "lower_bound", ends[0]


def repeat_stats(counted: list[TestResult], min_pass_rate: float,
                 ks: tuple[int, ...] = (), gate_on: GateOn = DEFAULT_GATE_ON) -> RepeatStats:
    """The figures of a repeated row over its `counted` runs: the pass rate, its interval and
    pass@k over the scored ones, the gate, the score spread over the runs with a score."""
    scored = [r for r in counted if r.status not in _UNSCORED]
    passed = sum(1 for r in scored if r.status == "passed")
    n = len(scored)
    at_k = [PassAtK(k=k, value=round(pass_at_k(n, passed, k), 6)) for k in ks if k <= n]
    rate = passed / n if n else None
    ends = wilson(passed, n)
    ci = None if ends is None else Interval(low=round(ends[0], 6), high=round(ends[1], 6))
    held = repeat_gate(counted, passed, n, min_pass_rate, gate_on)
    gated = None if held is None else round(held[1], 6)
    scores = [s for r in counted if (s := row_score(r)) is not None]
    return RepeatStats(
        runs=len(counted), scored=n, passed=passed,
        pass_rate=None if rate is None else round(rate, 6), pass_rate_ci95=ci,
        min_pass_rate=min_pass_rate, min_pass_rate_on=gate_on,
        gated_on=None if held is None else held[0], gated_value=gated,
        met=held is not None and held[1] >= min_pass_rate - 1e-12,
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


def merge_repetitions(reps: list[TestResult], min_pass_rate: float,
                      ks: tuple[int, ...] = (), gate_on: GateOn = DEFAULT_GATE_ON
                      ) -> TestResult:
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
                       f"{note} ({gate_text(stats)})"}
    elif status == "passed" and not stats.met:
        update |= {"status": "failed", "message": (
            f"passed {stats.passed} of {stats.measured} scored repetitions{note}, but the "
            f"lower bound does not reach min_pass_rate ({gate_text(stats)}): repeat it more, "
            f"or gate on the estimate (min_pass_rate_on: estimate)")}
    elif status != first.status or note:
        base = next(r for r in scored if r.status == status)
        update |= {"gap": base.gap, "assertions": base.assertions, "judge": base.judge,
                   "message": (base.message or status) + note}
    return first.model_copy(update=update)
