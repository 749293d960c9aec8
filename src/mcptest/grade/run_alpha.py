"""The run-level alpha's reading: its band, its counts and a seeded bootstrap interval over the
juries (docs/jury.md, "Run-level agreement").

A run where every juror agrees on every jury reads 1.0; one changed vote among sixty then reads
about 0 (the textbook formula has almost no variation to compare with). Neither number means much
without the counts beside it, so the summary says how many juries it rests on, how many of them
were unanimous, and the 95% interval a resampling of the juries gives.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING

from mcptest.grade.agreement import (
    Confidence,
    Rating,
    confidence_band,
    juror_means,
    run_agreement,
)
from mcptest.stats.intervals import SEED, quantile

if TYPE_CHECKING:
    from collections.abc import Sequence

_QUIET = 1e-15


@dataclass(frozen=True)
class RunAlpha:
    alpha: float | None
    band: Confidence
    juries: int
    """Juries (assertions, eval rows) with two or more rating jurors: the units."""
    unanimous: int
    """Of those, the juries whose jurors all gave the same value."""
    ci95: tuple[float, float] | None


Unit = tuple[int, float, float, float]
"""One jury's sums: its m values, Σv, Σv² and m·Σ(v − mean)²/(m − 1) (its share of the
observed disagreement, times n/2)."""


def _unit(values: Sequence[float]) -> Unit:
    m = len(values)
    mean = math.fsum(values) / m
    ss = math.fsum((v - mean) ** 2 for v in values)
    return m, math.fsum(values), math.fsum(v * v for v in values), m * ss / (m - 1)


def _alpha(n: int, total: float, squares: float, within: float) -> float:
    """Textbook interval alpha from the juries' summed sums; 1.0 when nothing varies."""
    spread = squares - total * total / n
    if spread <= _QUIET * n:
        return 1.0
    return 1.0 - (2.0 / n * within) / (2.0 * spread / (n - 1))


def _draws(units: Sequence[Unit], resamples: int, seed: int) -> list[float]:
    """Alpha of each resample of the juries, sorted: the sums of a resample are the sums of
    its juries' sums, so each costs four sums over the juries drawn."""
    columns = [list(c) for c in zip(*units, strict=True)]
    rng, juries = random.Random(seed), range(len(units))
    out = []
    for _ in range(resamples):
        pick = itemgetter(*rng.choices(juries, k=len(units)))
        n, total, squares, within = (sum(pick(c)) for c in columns)
        out.append(_alpha(n, total, squares, within))
    return sorted(out)


RESAMPLES = 1000
"""Fewer than calibration's 2,000: this one is computed at the end of every run with juries
(docs/architecture.md, "Costs"), and its ends move by about ±0.02 between seeds."""


def run_alpha(per_assertion: Sequence[Sequence[Sequence[Rating]]], *,
              resamples: int = RESAMPLES, seed: int = SEED) -> RunAlpha | None:
    """`run_agreement` with its band, counts and interval; None without a pairable jury. The
    interval resamples the juries (with replacement) and needs two or more of them."""
    if not per_assertion:
        return None
    values = [means for means in map(juror_means, per_assertion) if len(means) >= 2]
    alpha = run_agreement(per_assertion)
    if not values:
        return None
    ci = None
    if len(values) >= 2:
        units = [_unit(v) for v in values]
        # Juries all alike (the usual run: every juror gave every answer the same score): each
        # resample draws copies of that one jury, so all its alphas are the whole run's, bit for
        # bit. Drawing them cost ~25 ms at the end of a 100-answer panel run.
        draws = ([_alpha(*(sum(c) for c in zip(*units, strict=True)))] if len(set(units)) == 1
                 else _draws(units, resamples, seed))
        ci = (round(quantile(draws, 0.025), 6), round(quantile(draws, 0.975), 6))
    return RunAlpha(alpha=alpha, band=confidence_band(alpha), juries=len(values),
                    unanimous=sum(1 for v in values if max(v) - min(v) <= _QUIET), ci95=ci)
