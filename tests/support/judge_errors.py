"""A judge's error counts on labels from its specificity q0 and sensitivity q1: m0 labels that
people failed and m1 they passed (the stats tests of issue 39 state their cases this way)."""

from __future__ import annotations

from mcptest.stats.judge_correction import JudgeErrors


def judge_errors(q0: float, q1: float, m0: int, m1: int) -> JudgeErrors:
    return JudgeErrors(human_fail=m0, judge_fail=round(q0 * m0), human_pass=m1,
                       judge_pass=round(q1 * m1))
