"""Rogan–Gladen with the labels' uncertainty (mcptest.stats.judge_correction) against the
worked examples of Lee et al. (arXiv 2511.21140, the authors' README and module) and a seeded
simulation of a biased judge: the corrected interval covers the true rate at its level, the raw
rate's interval does not."""

from __future__ import annotations

import random

import pytest
from support.judge_errors import judge_errors as _errors

from mcptest.stats.intervals import wilson
from mcptest.stats.judge_correction import (
    JudgeErrors,
    correct,
    corrected_difference,
    rogan_gladen,
    rogan_gladen_interval,
)


# What the authors' `confidence_interval(p, q0, q1, n, m0, m1, alpha=0.05)` returns for the
# README's example and the module's own example (evaluated with their code, scipy's quantile).
@pytest.mark.parametrize(("p", "q0", "q1", "n", "m0", "m1", "point", "low", "high"), [
    (0.4, 0.7, 0.9, 1000, 200, 200, 1 / 6, 0.05635072484160894, 0.2627330257859588),
    (0.5, 0.9, 0.9, 10000, 5000, 5000, 0.5, 0.4857088025790391, 0.514291197420961),
    (0.84, 0.8, 0.95, 200, 40, 40, 0.64 / 0.75, 0.7526409344602487, 0.9942667863976855),
])
def test_the_papers_examples(p: float, q0: float, q1: float, n: int, m0: int, m1: int,
                             point: float, low: float, high: float) -> None:
    assert rogan_gladen(p, q0, q1) == pytest.approx(point)
    ends = rogan_gladen_interval(p, n, _errors(q0, q1, m0, m1))
    assert ends == pytest.approx((low, high), abs=1e-12)


def test_a_judge_no_better_than_chance_is_not_corrected() -> None:
    with pytest.raises(ValueError, match="beat chance"):
        rogan_gladen(0.5, 0.5, 0.5)
    assert correct(10, 20, _errors(0.5, 0.5, 20, 20)) is None
    assert correct(0, 0, _errors(0.9, 0.9, 20, 20)) is None
    assert correct(5, 10, JudgeErrors(0, 0, 20, 18)) is None


def test_a_lenient_judge_is_corrected_down() -> None:
    # passes 40% of true fails: 84% judged is about 73% true
    found = correct(168, 200, _errors(0.6, 0.95, 40, 40))
    assert found is not None
    assert found.raw == pytest.approx(0.84)
    assert found.rate == pytest.approx((0.84 + 0.6 - 1) / 0.55)
    assert found.low < found.rate < found.high
    assert found.rate < found.raw


def test_the_difference_is_the_raw_one_stretched_by_the_judges_errors() -> None:
    e = _errors(0.8, 0.9, 50, 50)
    d = corrected_difference((60, 100), (80, 100), e)
    assert d is not None
    assert d.raw == pytest.approx(-0.2)
    assert d.rate == pytest.approx(-0.2 / 0.7)
    assert d.low < d.rate < d.high < 0
    assert corrected_difference((0, 0), (1, 1), e) is None


def _simulate(seed: int, theta: float, q0: float, q1: float, n: int, m: int
              ) -> tuple[bool, bool]:
    """One run: n rows with true rate θ judged by a biased judge, m labels half and half."""
    rng = random.Random(seed)
    judged = 0
    for _ in range(n):
        truth = rng.random() < theta
        judged += (rng.random() < q1) if truth else (rng.random() >= q0)
    m0 = m1 = m // 2
    errors = JudgeErrors(human_fail=m0, judge_fail=sum(rng.random() < q0 for _ in range(m0)),
                         human_pass=m1, judge_pass=sum(rng.random() < q1 for _ in range(m1)))
    found = correct(judged, n, errors)
    raw = wilson(judged, n)
    assert found is not None and raw is not None
    return found.low <= theta <= found.high, raw[0] <= theta <= raw[1]


def test_the_corrected_interval_covers_the_truth_and_the_raw_one_does_not() -> None:
    """1,000 seeded runs: 300 rows at a true pass rate of 0.70, a lenient judge (it passes 30%
    of true failures, misses 5% of true passes), 80 labels. The judge then says about 0.755.
    The corrected 95% interval covers 0.70 in 95% ± 1.4% (three standard errors of a 1,000-run
    share) of runs, measured 0.961; the raw rate's Wilson interval in far fewer."""
    runs = [_simulate(seed, 0.70, 0.70, 0.95, 300, 80) for seed in range(1000)]
    corrected = sum(c for c, _ in runs) / len(runs)
    raw = sum(r for _, r in runs) / len(runs)
    assert abs(corrected - 0.95) <= 0.021, corrected  # measured 0.961
    assert raw < 0.5, raw  # measured 0.433
