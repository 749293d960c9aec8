"""Krippendorff's alpha for labels (nominal metric), for labeled juries (docs/jury.md, "Verdict
modes"). The interval alpha of `agreement` would read labels as numbers; here two answers
disagree when they differ, by 1, whatever the labels are.

Same shape and edge rules as `agreement.jury_agreement`: rows are raters, columns units, None
missing; only units rated twice count; all pairable answers identical → 1.0; a single unit
uses a uniform prior over the `categories` (expected disagreement 1 − 1/k), since textbook
alpha is identically 0 there.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def _units(ratings: Sequence[Sequence[str | None]]) -> list[list[str]]:
    width = max((len(r) for r in ratings), default=0)
    cols: list[list[str]] = [[] for _ in range(width)]
    for row in ratings:
        for u, v in enumerate(row):
            if v is not None:
                cols[u].append(v)
    return [c for c in cols if len(c) >= 2]


def _differing_pairs(values: Sequence[str]) -> int:
    """Unordered pairs i<j with different values."""
    n = len(values)
    return (n * (n - 1) - sum(c * (c - 1) for c in Counter(values).values())) // 2


def nominal_alpha(units: list[list[str]], categories: int) -> float | None:
    """Raw alpha over pairable units (each ≥ 2 answers); None without any."""
    if not units:
        return None
    if len(units) == 1:
        values = units[0]
        m = len(values)
        observed = _differing_pairs(values) / (m * (m - 1) / 2)
        expected = 1.0 - 1.0 / max(categories, 2)
        return 1.0 - observed / expected
    pooled = [v for u in units for v in u]
    n = len(pooled)
    expected = 2.0 * _differing_pairs(pooled) / (n * (n - 1))
    if expected == 0.0:
        return 1.0
    observed = 2.0 / n * sum(_differing_pairs(u) / (len(u) - 1) for u in units)
    return 1.0 - observed / expected


def labeled_jury_alpha(ratings: Sequence[Sequence[str | None]],
                    categories: int) -> tuple[float | None, float | None, int]:
    """(clipped to [0, 1], raw, pairable units) for one labeled jury."""
    if sum(1 for row in ratings if any(v is not None for v in row)) < 2:
        return None, None, 0
    units = _units(ratings)
    raw = nominal_alpha(units, categories)
    if raw is None:
        return None, None, 0
    return min(1.0, max(0.0, raw)), raw, len(units)


def run_label_agreement(per_assertion: Sequence[Sequence[str]]) -> float | None:
    """Run-level nominal alpha, raw: one unit per labeled jury, its jurors' labels as values
    (each juror's plurality over its repetitions); the categories of the one-unit variant are
    the distinct labels seen in the run (docs/jury.md, "Run-level agreement")."""
    units = [list(u) for u in per_assertion if len(u) >= 2]
    seen = {v for u in units for v in u}
    return nominal_alpha(units, len(seen))
