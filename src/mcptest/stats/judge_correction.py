"""A judged pass rate corrected for the judge's own errors (Rogan & Gladen 1978, with the
interval of Lee, Zeng, Jeong, Sohn & Lee, "How to Correctly Report LLM-as-a-Judge
Evaluations", arXiv 2511.21140).

A judge passes a truly failing answer with probability 1 − q0 (q0: its specificity) and a truly
passing one with probability q1 (its sensitivity), both measured on human labels. Its raw pass
rate p then estimates q1·θ + (1 − q0)·(1 − θ), not the true rate θ, and inverting that gives
θ = (p + q0 − 1)/(q0 + q1 − 1). The interval carries the test set's uncertainty (p over n rows)
and the labels' (q0 over the m0 failing labels, q1 over the m1 passing ones), with the
authors' add-two smoothing and bias term, so it stays honest at small m. Because q0 and q1 are
conditional on the true class, the estimate stays unbiased when the share of passes among the
labels differs from the run's (docs/statistics.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist


def z_of(level: float) -> float:
    """The two-sided normal quantile of a `level` interval (1.96 at 0.95)."""
    return NormalDist().inv_cdf(0.5 + level / 2)


@dataclass(frozen=True)
class JudgeErrors:
    """A judge against human labels: of `human_fail` labels the humans failed, the judge also
    failed `judge_fail` (q0 = judge_fail / human_fail); of `human_pass` the humans passed, the
    judge also passed `judge_pass` (q1 = judge_pass / human_pass)."""

    human_fail: int
    judge_fail: int
    human_pass: int
    judge_pass: int

    @property
    def specificity(self) -> float | None:
        return self.judge_fail / self.human_fail if self.human_fail else None

    @property
    def sensitivity(self) -> float | None:
        return self.judge_pass / self.human_pass if self.human_pass else None

    @property
    def youden(self) -> float | None:
        """q0 + q1 − 1: 0 for a judge no better than a coin, 1 for a perfect one."""
        q0, q1 = self.specificity, self.sensitivity
        return None if q0 is None or q1 is None else q0 + q1 - 1


def _clip(x: float) -> float:
    return min(1.0, max(0.0, x))


def rogan_gladen(p: float, q0: float, q1: float) -> float:
    """θ = (p + q0 − 1)/(q0 + q1 − 1), clipped to [0, 1]."""
    j = q0 + q1 - 1
    if j <= 0:
        raise ValueError(f"the judge must beat chance (q0 + q1 > 1), got {q0 + q1:.3f}")
    return _clip((p + q0 - 1) / j)


@dataclass(frozen=True)
class Corrected:
    """A corrected rate: the raw judged rate, the estimate of the true rate and its interval."""

    raw: float
    rate: float
    low: float
    high: float


def rogan_gladen_interval(p: float, n: int, errors: JudgeErrors, level: float = 0.95
                          ) -> tuple[float, float] | None:
    """The interval of Lee et al. (Appendix C): the rates smoothed (Agresti–Coull for p,
    add-two for q0 and q1), the delta-method standard error over all three samples, and the
    estimate moved by its second-order bias. None when a count is zero or the smoothed judge is
    no better than chance."""
    m0, m1 = errors.human_fail, errors.human_pass
    if n <= 0 or m0 <= 0 or m1 <= 0:
        return None
    z = z_of(level)
    ps = (n * p + z * z / 2) / (n + z * z)
    q0 = (errors.judge_fail + 1) / (m0 + 2)
    q1 = (errors.judge_pass + 1) / (m1 + 2)
    ns, m0s, m1s = n + z * z, m0 + 2, m1 + 2
    j = q0 + q1 - 1
    if j <= 0:
        return None
    th = (ps + q0 - 1) / j
    bias = 2 * z * z * (-(1 - th) * q0 * (1 - q0) / m0s + th * q1 * (1 - q1) / m1s)
    se = math.sqrt(ps * (1 - ps) / ns + (1 - th) ** 2 * q0 * (1 - q0) / m0s
                   + th * th * q1 * (1 - q1) / m1s) / j
    return _clip(th + bias - z * se), _clip(th + bias + z * se)


def correct(passed: int, of: int, errors: JudgeErrors, level: float = 0.95) -> Corrected | None:
    """`passed` of `of` judged passes, corrected; None when there is nothing to correct or the
    judge is no better than chance on its labels."""
    return correct_rate(passed / of, of, errors, level) if of > 0 else None


def correct_rate(p: float, n: int, errors: JudgeErrors, level: float = 0.95
                 ) -> Corrected | None:
    """A judged rate `p` over `n` units (a mean of per-test rates, a test counted once),
    corrected as `correct` does."""
    q0, q1 = errors.specificity, errors.sensitivity
    if n <= 0 or q0 is None or q1 is None or q0 + q1 <= 1:
        return None
    ends = rogan_gladen_interval(p, n, errors, level)
    if ends is None:
        return None
    return Corrected(raw=p, rate=rogan_gladen(p, q0, q1), low=ends[0], high=ends[1])


def corrected_difference(new: tuple[float, int], old: tuple[float, int], errors: JudgeErrors,
                         level: float = 0.95) -> Corrected | None:
    """The corrected change of a pass rate, new − old, both judged by the same judge: the raw
    difference divided by q0 + q1 − 1 (the judge's errors shrink a real change by that
    factor), its interval by the delta method over both runs and the labels. `raw` is the raw
    difference. None when either side is empty or the judge is no better than chance."""
    (a, n1), (b, n2) = new, old
    q0, q1 = errors.specificity, errors.sensitivity
    if n1 <= 0 or n2 <= 0 or q0 is None or q1 is None or q0 + q1 <= 1:
        return None
    p1, p2 = a / n1, b / n2
    j = q0 + q1 - 1
    d = (p1 - p2) / j
    var_j = q0 * (1 - q0) / errors.human_fail + q1 * (1 - q1) / errors.human_pass
    se = math.sqrt((p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2) / (j * j)
                   + d * d * var_j / (j * j))
    z = z_of(level)
    lo, hi = max(-1.0, d - z * se), min(1.0, d + z * se)
    return Corrected(raw=p1 - p2, rate=max(-1.0, min(1.0, d)), low=lo, high=hi)
