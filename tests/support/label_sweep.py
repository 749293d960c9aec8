"""Cheap judges of known error over confidence, calibrated on more and more labels: whether
adding labels keeps the trust (and savings) fewer labels gave the cascade's first tier
(docs/cascade.md, "How a threshold is chosen"; tests/calibrate/test_label_sweep.py and
`bench/bench_cascade.py --sweep`).

A judge's confidence is uniform on [0, 1) and its chance of disagreeing with people is a known
function of it, so the share of answers a threshold λ settles (1 − λ, the savings) and the judge's
true agreement on them are exact, not estimated. Each repetition draws the largest count of labels
once and calibrates on its first n for every n: the labels of a smaller count are among those of a
larger one, as when a team adds labels to its file.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from mcptest.calibrate.binomial import labels_needed, min_labels
from mcptest.calibrate.cascade import fixed_sequence

TARGET, RISK, TIERS = 0.9, 0.1, 2
ALPHA, DELTA = 1.0 - TARGET, RISK / (TIERS + 1)
COUNTS = (40, 60, 80, 100, 150, 200, 400)


@dataclass(frozen=True)
class SweepJudge:
    name: str
    says: str
    error: Callable[[float], float]
    """Its chance of disagreeing with people at confidence c."""
    error_above: Callable[[float], float]
    """Its error rate on the answers it is at least λ sure of (closed form)."""


JUDGES = {
    "sure-clean": SweepJudge(
        "sure-clean", "errs 8% overall, never on its surest 40%",
        lambda c: 2 / 15 if c < 0.6 else 0.0,
        lambda lam: 2 / 15 * max(0.0, 0.6 - lam) / (1.0 - lam)),
    "spread": SweepJudge(
        "spread", "errs 8% overall, more the less sure it is (16% × (1 − confidence))",
        lambda c: 0.16 * (1.0 - c),
        lambda lam: 0.08 * (1.0 - lam)),
    "borderline": SweepJudge(
        "borderline", "errs 15% overall, 30% × (1 − confidence): above 10% below confidence 1/3",
        lambda c: 0.3 * (1.0 - c),
        lambda lam: 0.15 * (1.0 - lam)),
}


def before(alpha: float, delta: float, available: int) -> int:
    """The start the fixed sequence had before issue 35 (kept to show what it did), which then
    tested every count from there: enough for a tier erring at α/2 once that many labels reached
    it, else the fewest any test passes on."""
    floor = min_labels(alpha, delta)
    half = labels_needed(alpha / 2, alpha, delta) or floor
    return half if half <= available else floor


@dataclass(frozen=True)
class SweepRow:
    labels: int
    trusted: float
    """Share of calibrations that trusted the judge (a threshold was found)."""
    coverage: float
    """Mean share of answers it settles (0 where untrusted): the savings."""
    lost: float
    """Share of calibrations trusting it on the previous count of labels and not on this one."""
    kept: float
    """Share of calibrations whose trusted judge truly agrees ≥ the target where it settles
    (an untrusted judge promises nothing and keeps it)."""


def draw(judge: SweepJudge, n: int, rng: random.Random) -> list[tuple[float, bool]]:
    """n labels: (the judge's confidence, it agreed with people)."""
    out = []
    for _ in range(n):
        c = rng.random()
        out.append((c, rng.random() >= judge.error(c)))
    return out


def sweep(judge: SweepJudge, reps: int, counts: Sequence[int] = COUNTS, seed: int = 35,
          old: bool = False) -> list[SweepRow]:
    """One row per count of labels over `reps` seeded repetitions; `old` calibrates with the
    start of `before`, testing every count from there, instead of today's sequence."""
    trusted = [[False] * reps for _ in counts]
    coverage = [[0.0] * reps for _ in counts]
    kept = [[True] * reps for _ in counts]
    for r in range(reps):
        labels = draw(judge, max(counts), random.Random(seed * 100_003 + r))
        for j, n in enumerate(counts):
            tested = range(before(ALPHA, DELTA, n), n + 1) if old else None
            found = fixed_sequence(labels[:n], ALPHA, DELTA, tested)
            if found is not None:
                trusted[j][r] = True
                coverage[j][r] = 1.0 - found.value
                kept[j][r] = 1.0 - judge.error_above(found.value) >= TARGET
    rows = []
    for j, n in enumerate(counts):
        lost = 0 if j == 0 else sum(trusted[j - 1][r] and not trusted[j][r] for r in range(reps))
        rows.append(SweepRow(n, sum(trusted[j]) / reps, sum(coverage[j]) / reps, lost / reps,
                             sum(kept[j]) / reps))
    return rows
