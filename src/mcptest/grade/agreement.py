"""Inter-juror agreement: Krippendorff's alpha (interval metric) and its confidence band.

A verdict alone hides how split the jury was; alpha says whether the jurors agree more than
chance would (SPEC §5.3). Everything here is pure arithmetic on plain floats so anyone can
recompute the report's numbers from the votes (docs/jury.md writes the formulas out).

Ratings are a matrix with one row per juror and one column per unit (a rated item: a criterion,
a repetition round, or an assertion at run level); `None` (or NaN) marks a missing rating.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

Rating = float | None
Confidence = Literal["high", "medium", "low"]

UNIFORM_VARIANCE = 1.0 / 12.0
"""Variance of the uniform distribution on [0, 1]: the expected disagreement for one unit."""
HIGH_ALPHA = 0.8
MEDIUM_ALPHA = 0.667
_BAND_DIGITS = 9
"""Alpha is rounded to this many decimals before banding so float noise (0.7999999999999998)
cannot move a value that is exactly on a boundary."""


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


def _sum_squares(values: Sequence[float]) -> float:
    mean = math.fsum(values) / len(values)
    return math.fsum((v - mean) ** 2 for v in values)


def _pairable_units(ratings: Sequence[Sequence[Rating]]) -> list[list[float]]:
    """Units rated by at least two raters: the only ones alpha can use."""
    return [col for col in _columns(ratings) if len(col) >= 2]


def _textbook(units: list[list[float]]) -> float | None:
    """Interval alpha over pairable units; None when the expected disagreement is zero.

    With n pairable values in total, m_u values in unit u, SS_u the sum of squared deviations
    from the unit mean and SS the same over all n values:
        D_o = (2/n) · Σ_u m_u·SS_u/(m_u − 1)      D_e = 2·SS/(n − 1)      alpha = 1 − D_o/D_e
    (the pairwise form Σ_{i≠j}(v_i − v_j)² = 2·m·SS, so this equals the coincidence-matrix form).
    """
    pooled = [v for unit in units for v in unit]
    n = len(pooled)
    expected = 2.0 * _sum_squares(pooled) / (n - 1)
    if expected == 0.0:
        return None
    observed = 2.0 / n * math.fsum(len(u) * _sum_squares(u) / (len(u) - 1) for u in units)
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


def jury_agreement(
    ratings: Sequence[Sequence[Rating]],
) -> tuple[float | None, float | None, int]:
    """Agreement of one jury as (clipped to [0, 1], raw, units used) under SPEC §5.3's rules.

    - fewer than two raters with a value, or no unit rated twice: (None, None, 0);
    - every pairable value identical: 1.0 (perfect agreement, where textbook alpha is 0/0);
    - exactly one pairable unit: alpha = 1 − s²/(1/12), s² the sample variance (ddof = 1) of
      that unit's ratings (textbook alpha is identically 0 there, so it says nothing);
    - two or more pairable units: textbook interval alpha.
    """
    if _raters_with_values(ratings) < 2:
        return None, None, 0
    units = _pairable_units(ratings)
    if not units:
        return None, None, 0
    if len(units) == 1:
        values = units[0]
        raw: float | None = 1.0 - (_sum_squares(values) / (len(values) - 1)) / UNIFORM_VARIANCE
    else:
        raw = _textbook(units)
    if raw is None:
        raw = 1.0
    return min(1.0, max(0.0, raw)), raw, len(units)


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


def _juror_means(matrix: Sequence[Sequence[Rating]]) -> list[float | None]:
    """Each juror's rating of one assertion: the mean of its present unit ratings."""
    means: list[float | None] = []
    for row in matrix:
        present = [v for v in (_clean(x) for x in row) if v is not None]
        means.append(math.fsum(present) / len(present) if present else None)
    return means


def run_agreement(
    per_assertion_ratings: Sequence[Sequence[Sequence[Rating]]],
    *,
    juror_models: Sequence[Sequence[str]] | None = None,
) -> float | None:
    """Run-level alpha across all jury assertions (units = assertions), raw (not clipped).

    Each assertion contributes one unit: every juror's mean rating over that assertion's units.
    Jurors are matched across assertions by row position (the i-th configured juror), unless
    `juror_models` gives the model id of every row, in which case they are matched by model id
    (a model listed twice in one jury is matched by its occurrence: 1st with 1st, 2nd with 2nd).
    The same rules as `jury_agreement` apply (one pairable assertion → uniform-prior variant;
    identical → 1.0). Raw, so systematic disagreement across the run shows as a negative value.
    """
    if juror_models is not None and len(juror_models) != len(per_assertion_ratings):
        raise ValueError("juror_models needs one list of models per assertion")
    keys: dict[object, int] = {}
    columns: list[dict[int, float]] = []
    for index, matrix in enumerate(per_assertion_ratings):
        means = _juror_means(matrix)
        column: dict[int, float] = {}
        seen: dict[str, int] = {}
        for row, mean in enumerate(means):
            key: object = row
            if juror_models is not None:
                models = juror_models[index]
                if len(models) != len(matrix):
                    raise ValueError(f"assertion {index}: {len(models)} models for "
                                     f"{len(matrix)} rating rows")
                model = models[row]
                seen[model] = seen.get(model, 0) + 1
                key = (model, seen[model])
            slot = keys.setdefault(key, len(keys))
            if mean is not None:
                column[slot] = mean
        columns.append(column)
    matrix_by_juror: list[list[Rating]] = [
        [column.get(slot) for column in columns] for slot in range(len(keys))
    ]
    _, raw, _ = jury_agreement(matrix_by_juror)
    return raw
