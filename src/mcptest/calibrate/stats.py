"""Agreement of a judge with humans: Cohen's kappa, Krippendorff's alpha, error rates.

No runtime dependency of mcptest provides these (scipy, scikit-learn and statsmodels are not
runtime dependencies, and the `krippendorff` package is dev-only), so Cohen's kappa and the
Wilson interval are the few lines of textbook arithmetic below; alpha reuses the project's own
implementation in `mcptest.grade.agreement`. The tests check kappa against scikit-learn's
`cohen_kappa_score` and alpha against the `krippendorff` package (docs/calibration.md).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from mcptest.grade.agreement import krippendorff_alpha_interval

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


class Interval(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    low: float
    high: float


class Rate(BaseModel):
    """A proportion `hits / of` with its Wilson 95% interval; None when `of` is zero."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    hits: int
    of: int
    rate: float | None
    ci95: Interval | None


class Confusion(BaseModel):
    """Counts of (human, judge) verdict pairs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    both_pass: int
    both_fail: int
    false_pass: int
    """The humans failed it, the judge passed it."""
    false_fail: int
    """The humans passed it, the judge failed it."""


class Figures(BaseModel):
    """Agreement of one coder (a juror or the jury's verdict) with the humans."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    labels: int
    """Labels with a verdict from this coder (abstentions and errors left out)."""
    kappa: float | None
    alpha: float | None
    """Krippendorff's alpha of the pass/fail verdicts, humans as one more coder."""
    score_alpha: float | None = None
    """Alpha of the scores (interval), when the humans gave scores."""
    accuracy: float | None
    false_pass: Rate
    false_fail: Rate
    confusion: Confusion


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float | None:
    """Cohen's kappa of two raters over the same items: (p_o − p_e) / (1 − p_e).

    p_o is the observed agreement and p_e the agreement expected from each rater's own
    marginals. None when it is undefined (no items, or both raters constant on one value).
    """
    n = len(a)
    if n == 0 or n != len(b):
        return None
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    ca, cb = Counter(a), Counter(b)
    expected = math.fsum(ca[k] * cb[k] for k in set(ca) | set(cb)) / (n * n)
    if expected == 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def wilson(hits: int, of: int, z: float = Z95) -> Interval | None:
    """Wilson score interval of a proportion; sound at 0 and 1 and for small samples."""
    if of == 0:
        return None
    p = hits / of
    denominator = 1.0 + z * z / of
    centre = (p + z * z / (2 * of)) / denominator
    half = z * math.sqrt(p * (1 - p) / of + z * z / (4 * of * of)) / denominator
    return Interval(low=max(0.0, centre - half), high=min(1.0, centre + half))


def rate(hits: int, of: int) -> Rate:
    return Rate(hits=hits, of=of, rate=hits / of if of else None, ci95=wilson(hits, of))


def alpha(*coders: Sequence[float | None]) -> float | None:
    """Krippendorff's alpha (interval) with each sequence one coder over the same units.

    On pass/fail coded 1/0 the interval metric equals the nominal one (δ² is 1 for any
    disagreement), so this is the nominal alpha of the verdicts too.
    """
    return krippendorff_alpha_interval([list(c) for c in coders])


def figures(human: Sequence[bool], judge: Sequence[bool | None],
            human_scores: Sequence[float | None] | None = None,
            judge_scores: Sequence[float | None] | None = None) -> Figures:
    """Agreement of one coder with the humans over the labels it gave a verdict on."""
    pairs = [(h, j) for h, j in zip(human, judge, strict=True) if j is not None]
    hs = [h for h, _ in pairs]
    js = [j for _, j in pairs]
    both_pass = sum(1 for h, j in pairs if h and j)
    both_fail = sum(1 for h, j in pairs if not h and not j)
    false_pass = sum(1 for h, j in pairs if not h and j)
    false_fail = sum(1 for h, j in pairs if h and not j)
    n = len(pairs)
    score_alpha = None
    if human_scores is not None and judge_scores is not None:
        score_alpha = alpha(human_scores, judge_scores)
    return Figures(
        labels=n, kappa=cohen_kappa(hs, js),
        alpha=alpha([float(h) for h in human], [None if j is None else float(j) for j in judge]),
        score_alpha=score_alpha,
        accuracy=(both_pass + both_fail) / n if n else None,
        false_pass=rate(false_pass, false_pass + both_fail),
        false_fail=rate(false_fail, false_fail + both_pass),
        confusion=Confusion(both_pass=both_pass, both_fail=both_fail, false_pass=false_pass,
                            false_fail=false_fail),
    )
