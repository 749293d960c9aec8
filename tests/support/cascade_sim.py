"""Scripted judges of known accuracy and confidence over labelled items, for the escalation
cascade's tests and bench (docs/cascade.md, "Trust or escalate").

Each item has a human verdict (about half pass) and a hidden difficulty in [0, 1]. The cheap
judge is right on easy items and a coin toss on hard ones, and its score says how sure it is:
far from the threshold on easy items, near it on hard ones (a judge whose confidence carries
information, as the method needs). Each juror of the jury is right with its own accuracy, less on
hard items, independently of the others. Everything is drawn from one seeded generator, so an
item's scores are the same in every test that builds the same set.

`simulate_splits` is the cascade's seeded simulation (docs/cascade.md, "What it buys"): every
split draws a fresh pool of labelled items, calibrates on half of it as `mcptest calibrate` does,
and applies the thresholds to the other half.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from mcptest.calibrate.cascade import TierOutput, TierSpec, calibrate_cascade
from mcptest.grade.confidence import margin, stands
from mcptest.grade.jury import passed_fraction

THRESHOLD = 0.7
CHEAP = "cheap-judge"
JURORS = ("juror-a", "juror-b", "juror-c")
PRICES = {CHEAP: (0.15, 0.6), **{j: (2.5, 10.0) for j in JURORS}}
"""USD per million (input, output) tokens: a small model and three large ones."""


@dataclass(frozen=True)
class Item:
    id: str
    human: bool
    difficulty: float
    scores: dict[str, float]
    """Each model's score on this item."""

    @property
    def candidate(self) -> str:
        return f"release note {self.id}: deployed billing v2.{self.id[-3:]} to production"


def _score(rng: random.Random, right: bool, human: bool, sureness: float) -> float:
    """A score on the side the verdict falls, `sureness` (0..1) of the way to its end."""
    passed = human if right else not human
    sureness = min(1.0, max(0.02, sureness))
    if passed:
        return round(THRESHOLD + sureness * (1.0 - THRESHOLD), 4)
    return round(THRESHOLD - sureness * THRESHOLD, 4)


def cheap_accuracy(d: float, easy: float, hard: float) -> float:
    """The cheap judge's chance of being right at difficulty `d`: `easy` on the easier half,
    falling linearly to `hard` on the hardest item."""
    return easy if d < 0.5 else easy + (hard - easy) * (d - 0.5) / 0.5


def items(count: int = 500, seed: int = 7, cheap_easy: float = 0.98, cheap_hard: float = 0.45,
          juror: float = 0.93, juror_hard: float = 0.85) -> list[Item]:
    """`count` items; the cheap judge is right with `cheap_easy` on the easier half and falls to
    `cheap_hard` on the hardest; each juror is right with `juror` on the easiest and
    `juror_hard` on the hardest (linear between)."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        human = rng.random() < 0.5
        d = rng.random()
        scores: dict[str, float] = {}
        right = rng.random() < cheap_accuracy(d, cheap_easy, cheap_hard)
        # sure on easy items, unsure on hard ones; a little noise either way
        scores[CHEAP] = _score(rng, right, human, (1.0 - d) * rng.uniform(0.7, 1.0))
        for j in JURORS:
            ok = rng.random() < juror + (juror_hard - juror) * d
            scores[j] = _score(rng, ok, human, rng.uniform(0.3, 1.0))
        out.append(Item(id=f"item-{n:03d}", human=human, difficulty=d, scores=scores))
    return out


def jury_passes(item: Item, quorum: float = 0.5) -> bool:
    votes = [item.scores[j] >= THRESHOLD for j in JURORS]
    return sum(votes) / len(votes) >= quorum


SPECS = [TierSpec("llm-judge", [CHEAP]), TierSpec("llm-jury", list(JURORS))]


def tier_outputs(item: Item, costs: Sequence[float] = (0.0001, 0.006)) -> list[TierOutput]:
    """What the cheap judge and the jury (quorum 0.5) answer on `item`, as the run's cascade
    grader reads them (confidence: `grade/confidence.py`); `costs` per verdict of each tier."""
    s = item.scores[CHEAP]
    fraction = passed_fraction(sum(item.scores[j] >= THRESHOLD for j in JURORS), len(JURORS))
    assert fraction is not None
    return [TierOutput(s >= THRESHOLD, margin(s, THRESHOLD), costs[0]),
            TierOutput(fraction >= 0.5, margin(fraction, 0.5), costs[1])]


@dataclass(frozen=True)
class Split:
    agreement: float
    """The cascade's agreement with the held-out labels."""
    settled: int
    """Held-out items the cheap judge settled."""
    settled_agreed: int
    cost: float
    jury_cost: float
    """The jury alone on the held-out items."""
    guaranteed: float
    cheap_right: float
    """The cheap judge's agreement with the labels over the whole pool."""


def one_split(seed: int, target: float, risk: float, costs: Sequence[float] = (0.0001, 0.006),
              count: int = 500) -> Split:
    """A fresh pool of `count` items drawn with `seed`: calibrated on one half, applied to the
    other."""
    pool = items(count=count, seed=seed)
    outs = [tier_outputs(it, costs) for it in pool]
    half = count // 2
    cal, held = range(half), range(half, count)  # the pool is in random order already
    record, _ = calibrate_cascade([pool[i].human for i in cal],
                                  [[outs[i][t] for i in cal] for t in range(2)], SPECS,
                                  target, risk)
    lam = record.tiers[0].threshold
    agreed = settled = settled_agreed = 0
    cost = jury_cost = 0.0
    for i in held:
        cheap, jury = outs[i]
        cost += cheap.cost_usd if lam is not None else 0.0
        jury_cost += jury.cost_usd
        if stands(cheap.confidence, lam):
            verdict = cheap.passed
            settled += 1
            settled_agreed += verdict == pool[i].human
        else:
            verdict = jury.passed
            cost += jury.cost_usd
        agreed += verdict == pool[i].human
    right = sum(o[0].passed == it.human for o, it in zip(outs, pool, strict=True)) / count
    return Split(agreed / len(held), settled, settled_agreed, cost, jury_cost,
                 record.guaranteed_agreement, right)
