"""Agreement of a judge with humans: Cohen's kappa, Krippendorff's alpha, error rates, each with
its 95% interval (docs/calibration.md).

No runtime dependency of mcptest provides these (scipy, scikit-learn and statsmodels are not
runtime dependencies, and the `krippendorff` package is dev-only), so Cohen's kappa is the few
lines of textbook arithmetic below, the intervals are `mcptest.stats.intervals` (Wilson's for
rates, a seeded percentile bootstrap over the labels for kappa and alpha), and alpha reuses the
project's own implementation in `mcptest.grade.agreement`. The tests check kappa against
scikit-learn's `cohen_kappa_score` and alpha against the `krippendorff` package.
"""

from __future__ import annotations

import math
from collections import Counter
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from mcptest.grade.agreement import krippendorff_alpha_interval
from mcptest.report.base import Interval
from mcptest.stats import intervals

if TYPE_CHECKING:
    from collections.abc import Sequence


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
    kappa_ci95: Interval | None = None
    """Percentile bootstrap over the labels (2,000 resamples, seeded): the same record gives
    the same interval on every machine."""
    kappa_below_floor: float | None = None
    """The share of those resamples whose kappa falls below the gate's floor (when known)."""
    alpha: float | None
    """Krippendorff's alpha of the pass/fail verdicts, humans as one more coder."""
    alpha_ci95: Interval | None = None
    score_alpha: float | None = None
    """Alpha of the scores (interval), when the humans gave scores."""
    accuracy: float | None
    accuracy_ci95: Interval | None = None
    """Wilson 95% interval of the accuracy."""
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


def wilson_interval(hits: int, of: int) -> Interval | None:
    """Wilson score interval of a proportion (`stats.intervals.wilson`) as a report field."""
    ends = intervals.wilson(hits, of)
    return None if ends is None else Interval(low=ends[0], high=ends[1])


def interval(ends: tuple[float, float] | None) -> Interval | None:
    return None if ends is None else Interval(low=round(ends[0], 6), high=round(ends[1], 6))


def rate(hits: int, of: int) -> Rate:
    return Rate(hits=hits, of=of, rate=hits / of if of else None, ci95=wilson_interval(hits, of))


def alpha(*coders: Sequence[float | None]) -> float | None:
    """Krippendorff's alpha (interval) with each sequence one coder over the same units.

    On pass/fail coded 1/0 the interval metric equals the nominal one (δ² is 1 for any
    disagreement), so this is the nominal alpha of the verdicts too. When every paired value
    is the same (everyone agrees on every label) it is 1.0, as for a jury and a run
    (docs/jury.md, "Edge rules"); None when no label was rated by two coders.
    """
    found = krippendorff_alpha_interval([list(c) for c in coders])
    if found is not None:
        return found
    paired = [u for u in zip(*coders, strict=True) if sum(v is not None for v in u) >= 2]
    return 1.0 if paired else None


def kappa_interval(hs: Sequence[bool], js: Sequence[bool]) -> Interval | None:
    """The bootstrap interval of kappa over the (human, judge) pairs."""
    pairs = list(zip(hs, js, strict=True))
    return interval(intervals.bootstrap(
        pairs, lambda s: cohen_kappa([h for h, _ in s], [j for _, j in s])))


def kappa_share_below(hs: Sequence[bool], js: Sequence[bool], floor: float) -> float | None:
    """How often a resample of the labels gives a kappa below `floor`."""
    pairs = list(zip(hs, js, strict=True))
    found = intervals.share_below(
        pairs, lambda s: cohen_kappa([h for h, _ in s], [j for _, j in s]), floor)
    return None if found is None else round(found, 4)


def alpha_interval(*coders: Sequence[float | None]) -> Interval | None:
    """The bootstrap interval of `alpha` over the labels (units)."""
    units = list(zip(*coders, strict=True))
    return interval(intervals.bootstrap(
        units, lambda s: alpha(*(list(c) for c in zip(*s, strict=True)))))


def figures(human: Sequence[bool], judge: Sequence[bool | None],
            human_scores: Sequence[float | None] | None = None,
            judge_scores: Sequence[float | None] | None = None,
            floor: float | None = None) -> Figures:
    """Agreement of one coder with the humans over the labels it gave a verdict on; `floor`:
    the gate's kappa floor, to say how often a resample falls below it."""
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
    coded = ([float(h) for h in human], [None if j is None else float(j) for j in judge])
    return Figures(
        labels=n, kappa=cohen_kappa(hs, js), kappa_ci95=kappa_interval(hs, js),
        kappa_below_floor=None if floor is None else kappa_share_below(hs, js, floor),
        alpha=alpha(*coded), alpha_ci95=alpha_interval(*coded),
        score_alpha=score_alpha,
        accuracy=(both_pass + both_fail) / n if n else None,
        accuracy_ci95=wilson_interval(both_pass + both_fail, n),
        false_pass=rate(false_pass, false_pass + both_fail),
        false_fail=rate(false_fail, false_fail + both_pass),
        confusion=Confusion(both_pass=both_pass, both_fail=both_fail, false_pass=false_pass,
                            false_fail=false_fail),
    )
