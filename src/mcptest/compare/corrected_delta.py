"""The change of each judge's pass rate between the baseline and this run, corrected for the
judge's errors (docs/statistics.md, "Corrected deltas").

A judge that passes some bad answers and fails some good ones shrinks every real change of the
pass rate by q0 + q1 − 1 (its specificity plus sensitivity, less one), so the raw delta is
stretched back by that factor; the interval carries both runs' sampling and the labels'. The
labels are the new run's record: they measured the judge as it graded now.
"""

from __future__ import annotations

from mcptest.report.base import Interval
from mcptest.report.models import CorrectedDelta, Report
from mcptest.stats.judge_correction import JudgeErrors, corrected_difference


def corrected_deltas(old: Report, new: Report) -> list[CorrectedDelta]:
    before = {j.record: j for j in old.summary.corrected if j.record is not None and j.tests}
    out = []
    for j in new.summary.corrected:
        was = before.get(j.record) if j.record is not None else None
        if was is None or j.corrected is None or not j.tests or j.record is None:
            continue
        e = j.corrected.errors
        found = corrected_difference(
            (j.judged_passed, j.tests), (was.judged_passed, was.tests),
            JudgeErrors(human_fail=e.human_fail, judge_fail=e.judge_fail,
                        human_pass=e.human_pass, judge_pass=e.judge_pass))
        if found is None:
            continue
        out.append(CorrectedDelta(
            record=j.record, old_raw_rate=round(was.judged_passed / was.tests, 6),
            new_raw_rate=round(j.judged_passed / j.tests, 6), raw_delta=round(found.raw, 6),
            delta=round(found.rate, 6),
            ci95=Interval(low=round(found.low, 6), high=round(found.high, 6))))
    return out
