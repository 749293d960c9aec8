"""Intervals where decisions are made: Wilson's score interval for a proportion, and a seeded
percentile bootstrap for statistics without a simple formula (Cohen's kappa, Krippendorff's
alpha). Pure arithmetic on plain numbers (docs/decisions.md, "Numbers").
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

T = TypeVar("T")

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""
RESAMPLES = 2000
"""Bootstrap resamples: the interval's ends move by about ±0.01 between seeds at n = 50."""
SEED = 20260
"""Every bootstrap is seeded: the same data give the same interval on every run."""


def wilson(hits: int, of: int, z: float = Z95) -> tuple[float, float] | None:
    """Wilson score interval of `hits / of` (Wilson 1927; Newcombe 1998, method 3): sound at 0
    and 1 and for small samples, unlike the normal approximation. None when `of` is 0."""
    if of == 0:
        return None
    if not 0 <= hits <= of:
        raise ValueError(f"need 0 <= hits <= of, got {hits} of {of}")
    p = hits / of
    denominator = 1.0 + z * z / of
    centre = (p + z * z / (2 * of)) / denominator
    half = z * math.sqrt(p * (1 - p) / of + z * z / (4 * of * of)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def bootstrap(items: Sequence[T], statistic: Callable[[Sequence[T]], float | None], *,
              resamples: int = RESAMPLES, seed: int = SEED, level: float = 0.95
              ) -> tuple[float, float] | None:
    """Percentile bootstrap interval of `statistic` over `items` resampled with replacement
    (Efron & Tibshirani 1993, ch. 13). Resamples where the statistic is undefined (None) are
    left out; None when fewer than half of them are defined or there are under two items."""
    n = len(items)
    if n < 2:
        return None
    rng = random.Random(seed)
    values = []
    for _ in range(resamples):
        v = statistic([items[rng.randrange(n)] for _ in range(n)])
        if v is not None and not math.isnan(v):
            values.append(v)
    if len(values) < resamples / 2:
        return None
    values.sort()
    tail = (1.0 - level) / 2
    return quantile(values, tail), quantile(values, 1.0 - tail)


def quantile(ordered: Sequence[float], q: float) -> float:
    """Linear interpolation between order statistics (numpy's default, method 7)."""
    pos = q * (len(ordered) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def share_below(items: Sequence[T], statistic: Callable[[Sequence[T]], float | None],
                floor: float, *, resamples: int = RESAMPLES, seed: int = SEED) -> float | None:
    """The share of bootstrap resamples whose statistic falls below `floor`."""
    n = len(items)
    if n < 2:
        return None
    rng = random.Random(seed)
    below = defined = 0
    for _ in range(resamples):
        v = statistic([items[rng.randrange(n)] for _ in range(n)])
        if v is not None:
            defined += 1
            below += v < floor
    return below / defined if defined else None
