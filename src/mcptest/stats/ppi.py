"""Prediction-powered inference of a mean, PPI++ (Angelopoulos, Duchi & Zrnic, "PPI++: Efficient
Prediction-Powered Inference", arXiv 2311.01453; Angelopoulos et al., Science 382:669, 2023).

Given the judge's verdicts on N unlabelled rows and, on a random audit sample of n other rows,
both the judge's verdict and a human's label:

    θ̂ = λ·mean(judge on the unlabelled) + mean(human − λ·judge on the audited)

is unbiased whatever the judge, because the second term measures the judge's error on rows
drawn at random from the same run. λ (the power tuning, clipped to [0, 1]) is chosen to make the
variance smallest: λ = 0 is the humans' mean alone, λ = 1 plain PPI. The interval is the normal
one over both samples' variances. The numbers match the `ppi-python` package's
`ppi_mean_pointestimate` and `ppi_mean_ci` (tests/stats/test_ppi.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.stats.judge_correction import z_of

if TYPE_CHECKING:
    from collections.abc import Sequence


def _mean(xs: Sequence[float]) -> float:
    return math.fsum(xs) / len(xs)


def _var(xs: Sequence[float], ddof: int = 0) -> float:
    m = _mean(xs)
    return math.fsum((x - m) ** 2 for x in xs) / (len(xs) - ddof)


@dataclass(frozen=True)
class PpiEstimate:
    rate: float
    low: float
    high: float
    lam: float
    """The power tuning used."""
    labelled: int
    unlabelled: int
    correlation: float | None
    """Pearson correlation of judge and human on the audited rows (None when either is
    constant): what the label planner's gain is computed from."""


def power_tuning(human: Sequence[float], judged: Sequence[float],
                 unlabelled: Sequence[float]) -> float:
    """The λ that minimises the estimate's variance: cov(human, judge) over
    (1 + n/N)·var(judge), the variance over all rows the judge saw, clipped to [0, 1]."""
    n, big_n = len(human), len(unlabelled)
    mh, mj = _mean(human), _mean(judged)
    cov = math.fsum((h - mh) * (j - mj) for h, j in zip(human, judged, strict=True)) / n
    everything = [*judged, *unlabelled]
    var = _var(everything, ddof=1) if len(everything) > 1 else 0.0
    if var == 0.0:
        return 0.0
    return min(1.0, max(0.0, cov / ((1 + n / big_n) * var)))


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    mx, my = _mean(xs), _mean(ys)
    sxy = math.fsum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = math.fsum((x - mx) ** 2 for x in xs)
    syy = math.fsum((y - my) ** 2 for y in ys)
    return None if sxx == 0 or syy == 0 else sxy / math.sqrt(sxx * syy)


def ppi_mean(human: Sequence[float], judged: Sequence[float], unlabelled: Sequence[float],
             level: float = 0.95, lam: float | None = None) -> PpiEstimate | None:
    """The PPI++ estimate and interval of the mean of `human` (1 pass, 0 fail) from the
    audited rows (`human`, `judged`, paired) and the judge's verdicts on the rest
    (`unlabelled`). None with fewer than two audited rows or no unlabelled row."""
    n, big_n = len(human), len(unlabelled)
    if n < 2 or big_n < 1 or len(judged) != n:
        return None
    if lam is None:
        lam = power_tuning(human, judged, unlabelled)
    rate = lam * _mean(unlabelled) + _mean([h - lam * j for h, j in zip(human, judged,
                                                                           strict=True)])
    imputed = lam * lam * _var(unlabelled) / big_n
    rectifier = _var([h - lam * j for h, j in zip(human, judged, strict=True)]) / n
    half = z_of(level) * math.sqrt(imputed + rectifier)
    return PpiEstimate(rate=rate, low=rate - half, high=rate + half, lam=lam, labelled=n,
                       unlabelled=big_n, correlation=correlation(human, judged))
