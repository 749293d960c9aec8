"""Juries whose jurors err together: where the run's agreement band starts to mislead
(docs/jury.md, "Jurors that err together"). Used by tests/grade/test_juror_sim.py (a fast,
coarse run) and bench/bench_jurors.py (the table in the docs).

A run is `items` answers, half of them truly passing; three jurors each right 80% of the time
vote pass or fail on every answer, and the jury decides by majority. The jurors' errors
correlate at ρ in one of two ways: `pair` (two of the three err together, the third alone:
one juror copying another, the issue's case) or `all` (every pair at ρ: a shared blind spot).
For each ρ the simulation measures the run-level α mcptest prints (`run_agreement`, the same
function) and the jury's accuracy against the truth.

The band misleads a run when it reads more agreement than a run of independent jurors (its α
above their median) while the jury is less accurate than theirs (its accuracy below their
median): the band moved up as the verdicts got worse. With independent jurors that happens in
about one run in five (α and accuracy then rise and fall together); where it happens in half
the runs or more, the band misleads more often than not, and that ρ is where the warning
starts.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcptest.grade.agreement import run_agreement

JURORS = 3
ERROR_RATE = 0.2
MISLEADS = 0.5
"""The share of runs misled at which the band is said to mislead: more often than not."""


@dataclass(frozen=True)
class Row:
    """What the runs of one ρ showed."""

    rho: float
    alpha: float
    """Mean run-level α."""
    accuracy: float
    """Mean majority accuracy against the truth."""
    error_correlation: float
    """Mean measured phi of the first two jurors' errors (what `calibrate` would report)."""
    misled: float
    """Share of runs whose α is above the independent runs' median while their accuracy is
    below the independent runs' median."""


def _errors(rng: np.random.Generator, items: int, rho: float, shape: str) -> np.ndarray:
    """Juror × item error indicators, each juror wrong `ERROR_RATE` of the time, with the
    chosen pairs' errors correlated at `rho` (phi)."""
    q = ERROR_RATE
    errors = rng.random((JURORS, items)) < q
    if shape == "pair":  # juror 1 given juror 0: P(wrong | 0 wrong) = q + ρ(1 − q)
        chance = np.where(errors[0], q + rho * (1 - q), q * (1 - rho))
        errors[1] = rng.random(items) < chance
    else:  # each juror copies a shared error with probability √ρ: every pair correlates ρ
        shared = rng.random(items) < q
        copies = rng.random((JURORS, items)) < np.sqrt(rho)
        errors = np.where(copies, shared, errors)
    return errors


def one_run(rng: np.random.Generator, items: int, rho: float,
            shape: str) -> tuple[float, float, float]:
    """(run-level α, majority accuracy, phi of jurors 0 and 1) of one simulated run."""
    truth = rng.random(items) < 0.5
    errors = _errors(rng, items, rho, shape)
    votes = truth ^ errors
    majority = votes.sum(axis=0) * 2 > JURORS
    alpha = run_agreement([[[float(v)] for v in votes[:, i]] for i in range(items)])
    with np.errstate(invalid="ignore", divide="ignore"):
        phi = float(np.corrcoef(errors[0], errors[1])[0, 1])
    return (float("nan") if alpha is None else alpha,
            float(np.mean(majority == truth)), phi)


def simulate(rhos: list[float], *, shape: str, items: int = 60, runs: int = 200,
             seed: int = 35) -> list[Row]:
    """One row per ρ (the first must be 0: the independent runs the others are read
    against), each from `runs` seeded runs of `items` answers."""
    if rhos[0] != 0:
        raise ValueError("the first rho must be 0: the independent baseline")
    rng = np.random.default_rng(seed)
    rows: list[Row] = []
    median_alpha = median_accuracy = 0.0
    for rho in rhos:
        found = np.array([one_run(rng, items, rho, shape) for _ in range(runs)])
        alpha, accuracy = found[:, 0], found[:, 1]
        if rho == 0:
            median_alpha, median_accuracy = float(np.median(alpha)), float(np.median(accuracy))
        misled = float(np.mean((alpha > median_alpha) & (accuracy < median_accuracy)))
        rows.append(Row(rho=rho, alpha=float(np.mean(alpha)), accuracy=float(np.mean(accuracy)),
                        error_correlation=float(np.nanmean(found[:, 2])), misled=misled))
    return rows


def first_misleading(rows: list[Row]) -> float | None:
    """The smallest ρ from which on the band misleads in `MISLEADS` of the runs or more."""
    for i, row in enumerate(rows):
        if all(r.misled >= MISLEADS for r in rows[i:]):
            return row.rho
    return None
