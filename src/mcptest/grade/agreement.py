"""Inter-juror agreement: Krippendorff's alpha (interval metric) and its confidence band.

A verdict alone hides how split the jury was; alpha says whether the jurors agree more than
chance would (docs/§5.3). Everything here is pure arithmetic on plain floats so anyone can
recompute the report's numbers from the votes (docs/jury.md writes the formulas out).

Ratings are a matrix with one row per juror and one column per unit (a rated item: a criterion,
a repetition round, or an assertion at run level); `None` (or NaN) marks a missing rating.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mcptest.grade.agreement_nominal import labeled_jury_alpha

if TYPE_CHECKING:
    from collections.abc import Sequence

Rating = float | None
Confidence = Literal["high", "medium", "low"]

UNIFORM_VARIANCE = 1.0 / 12.0
"""Variance of the uniform distribution on [0, 1]: the expected disagreement for one unit."""
HIGH_ALPHA = 0.8
MEDIUM_ALPHA = 0.667
_BAND_DIGITS = 9
"""Alpha is rounded to this many decimals before banding so float noise (0.7999999999999998)
cannot move a value that is exactly on a boundary."""
_PAIRWISE_LIMIT = 256


def _clean(value: Rating) -> float | None:
    """A rating as a finite float, or None when missing; infinities are a caller bug."""
    if value is None:
        return None
    number = float(value)
    if math.isnan(number):
        return None
    if math.isinf(number):
        raise ValueError(f"rating must be finite, got {value!r}")
    return number


def _columns(ratings: Sequence[Sequence[Rating]]) -> list[list[float]]:
    """Per-unit lists of present values (rows are raters, columns are units)."""
    rows = [[_clean(v) for v in row] for row in ratings]
    width = max((len(row) for row in rows), default=0)
    columns: list[list[float]] = [[] for _ in range(width)]
    for row in rows:
        for unit, value in enumerate(row):
            if value is not None:
                columns[unit].append(value)
    return columns


def _raters_with_values(ratings: Sequence[Sequence[Rating]]) -> int:
    return sum(1 for row in ratings if any(_clean(v) is not None for v in row))


def _pair_sum(values: Sequence[float]) -> float:
    """Σ over unordered pairs i<j of (v_i − v_j)².

    Up to `_PAIRWISE_LIMIT` distinct values the differences are taken directly, grouped by
    value, so near-equal ratings lose no precision; beyond it (long runs of free-form scores)
    the identity Σ_{i<j}(v_i − v_j)² = m·Σ(v − mean)² keeps the cost linear.
    """
    counts = sorted(Counter(values).items())
    if len(counts) > _PAIRWISE_LIMIT:
        mean = math.fsum(values) / len(values)
        return len(values) * math.fsum((v - mean) ** 2 for v in values)
    return math.fsum(
        ca * cb * (a - b) ** 2
        for i, (a, ca) in enumerate(counts)
        for b, cb in counts[i + 1:]
    )


def _sample_variance(values: Sequence[float]) -> float:
    """s² with ddof = 1, via the pair identity s² = Σ_{i<j}(v_i − v_j)² / (m·(m − 1))."""
    m = len(values)
    return _pair_sum(values) / (m * (m - 1))


def _pairable_units(ratings: Sequence[Sequence[Rating]]) -> list[list[float]]:
    """Units rated by at least two raters: the only ones alpha can use."""
    return [col for col in _columns(ratings) if len(col) >= 2]


def _textbook(units: list[list[float]]) -> float | None:
    """Interval alpha over pairable units; None when the expected disagreement is zero.

    With n pairable values in total and m_u values in unit u (pairs counted once, i < j):
        D_o = (2/n) · Σ_u Σ_{i<j in u} (v_i − v_j)² / (m_u − 1)
        D_e = 2/(n·(n − 1)) · Σ_{i<j over all n values} (v_i − v_j)²
        alpha = 1 − D_o / D_e
    which is the coincidence-matrix form of the textbook with the metric δ² = (c − k)².
    """
    pooled = [v for unit in units for v in unit]
    n = len(pooled)
    expected = 2.0 * _pair_sum(pooled) / (n * (n - 1))
    if expected == 0.0:
        return None
    observed = 2.0 / n * math.fsum(_pair_sum(u) / (len(u) - 1) for u in units)
    return 1.0 - observed / expected


def krippendorff_alpha_interval(ratings: Sequence[Sequence[Rating]]) -> float | None:
    """Textbook Krippendorff's alpha, interval metric, over the pairable values.

    None when it is undefined: fewer than two raters with any value, no unit rated twice, or
    every pairable value identical (0/0). Values of units rated once are ignored, as the
    textbook (and the `krippendorff` package) do.
    """
    if _raters_with_values(ratings) < 2:
        return None
    units = _pairable_units(ratings)
    if not units:
        return None
    return _textbook(units)


def _agreement(units: list[list[float]]) -> tuple[float | None, float | None, int]:
    """docs/§5.3's reading of alpha over the pairable units (each a list of ≥ 2 ratings)."""
    if not units:
        return None, None, 0
    if len(units) == 1:
        raw: float | None = 1.0 - _sample_variance(units[0]) / UNIFORM_VARIANCE
    else:
        raw = _textbook(units)
    if raw is None:  # every pairable rating identical: no disagreement at all
        raw = 1.0
    return min(1.0, max(0.0, raw)), raw, len(units)


def jury_agreement(
    ratings: Sequence[Sequence[Rating]],
) -> tuple[float | None, float | None, int]:
    """Agreement of one jury as (clipped to [0, 1], raw, units used) under docs/§5.3's rules.

    - fewer than two raters with a value, or no unit rated twice: (None, None, 0);
    - every pairable rating identical: 1.0 (perfect agreement, where textbook alpha is 0/0);
    - exactly one pairable unit: alpha = 1 − s²/(1/12), s² the sample variance (ddof = 1) of
      that unit's ratings (textbook alpha is identically 0 there, so it says nothing);
    - two or more pairable units: textbook interval alpha.
    "Units used" counts the pairable units (rated by at least two jurors).
    """
    if _raters_with_values(ratings) < 2:
        return None, None, 0
    return _agreement(_pairable_units(ratings))


def confidence_band(alpha: float | None) -> Confidence:
    """high (alpha ≥ 0.8), medium (0.667 ≤ alpha < 0.8), low (below, or undefined)."""
    if alpha is None or math.isnan(alpha):
        return "low"
    rounded = round(alpha, _BAND_DIGITS)
    if rounded >= HIGH_ALPHA:
        return "high"
    if rounded >= MEDIUM_ALPHA:
        return "medium"
    return "low"


def juror_means(matrix: Sequence[Sequence[Rating]]) -> list[float]:
    """The jurors' ratings of one assertion: each juror's mean over its present unit ratings."""
    means: list[float] = []
    for row in matrix:
        present = [v for v in (_clean(x) for x in row) if v is not None]
        if present:
            means.append(math.fsum(present) / len(present))
    return means


def run_agreement(per_assertion_ratings: Sequence[Sequence[Sequence[Rating]]]) -> float | None:
    """Run-level alpha across all jury assertions (units = assertions), raw (not clipped).

    Each assertion is one unit whose values are its jurors' mean ratings (mean over that
    assertion's own units; a juror with no rating is missing). Alpha depends only on which
    values share a unit, never on which rater gave them, so jurors need no matching across
    assertions and juries of different sizes or panels mix freely. An assertion with fewer than
    two rating jurors cannot be paired and is left out. The same rules as `jury_agreement`
    apply (one pairable assertion → the uniform-prior variant; all identical → 1.0). The value
    is raw so that systematic disagreement across a run shows as a negative number.
    """
    units = [means for means in map(juror_means, per_assertion_ratings) if len(means) >= 2]
    return _agreement(units)[1]


@dataclass(frozen=True)
class Agreement:
    """One jury's agreement as docs/jury.md defines it, and its reading."""

    value: float | None
    """`raw` clipped to [0, 1]; None with fewer than two decisive jurors."""
    raw: float | None
    """The lower of `answers_raw` and `votes_raw` (whichever exist)."""
    units: int
    """Units the answers' alpha used (1 when only votes were compared)."""
    answers_raw: float | None
    """Alpha of what the jurors answered: scores (interval) or labels (nominal)."""
    votes_raw: float | None
    """Alpha of their pass/fail votes, one unit: 1 − 12·s² of the votes as 1/0."""
    band: Confidence
    escalate: bool


def votes_alpha(votes: Sequence[bool]) -> float | None:
    """The one-unit alpha of pass/fail votes coded 1/0: 1 − s²/(1/12). All alike → 1.0; any
    split of m < 60 votes is below 0.8 (one dissent gives 1 − 12/m)."""
    if len(votes) < 2:
        return None
    return _agreement([[1.0 if v else 0.0 for v in votes]])[1]


def decision_agreement(ratings: Sequence[Sequence[Rating]],
                       labels: Sequence[Sequence[str | None]],
                       votes: Sequence[bool | None] | None, categories: int) -> Agreement:
    """The agreement of one jury over its decisive jurors (one row each): of the answers (the
    scores' interval alpha, or the labels' nominal alpha) and of the votes that decide the
    verdict (`votes` None: the label itself is the verdict), the lower one. So a jury whose
    votes split reads low however close its scores sit around the threshold."""
    if len(ratings) < 2:
        return Agreement(None, None, 0, None, None, "low", True)
    if any(v is not None for row in labels for v in row):
        _, answers, units = labeled_jury_alpha(labels, categories)
    else:
        _, answers, units = jury_agreement(ratings)
    said = [v for v in votes or [] if v is not None]
    by_votes = votes_alpha(said) if votes is not None and len(said) == len(votes) else None
    parts = [x for x in (answers, by_votes) if x is not None]
    raw = None if not parts else round(min(parts), 12)
    band = confidence_band(raw)
    return Agreement(None if raw is None else min(1.0, max(0.0, raw)), raw,
                     units or (1 if by_votes is not None else 0),
                     None if answers is None else round(answers, 12),
                     None if by_votes is None else round(by_votes, 12), band, band == "low")
