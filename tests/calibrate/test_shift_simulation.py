"""The cascade's guarantee and the check of its assumption, simulated (docs/cascade.md, "When
the guarantee does not apply"): every split draws a fresh pool of labelled items and a fresh
run, from a world where a cheap judge is sure and right on easy items and unsure and often wrong
on hard ones. Calibrated on items with 3% hard cases: on a run like the labels the guarantee
holds and the shift check stays quiet (at most 5% of runs); on a run with 25% hard cases the
check fires in at least 95% of runs. Each run is graded in order through the run's looks
(`ShiftLooks`): once one fires, the rest of its answers skip the cheap tier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from mcptest.calibrate.cascade import TierOutput, TierSpec, calibrate_cascade
from mcptest.calibrate.shift import TierSample
from mcptest.calibrate.shift_looks import ShiftLooks
from mcptest.grade.confidence import stands

SPLITS = 100
LABELS = 500
RUN = 400
SPECS = [TierSpec("llm-judge", ["cheap"]), TierSpec("llm-jury", ["a", "b", "c"])]


def _items(rng: np.random.Generator, n: int, hard_share: float
           ) -> tuple[list[bool], list[list[TierOutput]]]:
    """n items: the humans' verdicts and both tiers' outputs on each."""
    hard = rng.random(n) < hard_share
    human = rng.random(n) < 0.5
    right1 = np.where(hard, rng.random(n) < 0.55, rng.random(n) < 0.985)
    conf1 = np.where(hard, rng.beta(2, 5, n), rng.beta(8, 2, n))
    right2 = np.where(hard, rng.random(n) < 0.85, rng.random(n) < 0.95)
    conf2 = rng.beta(6, 2, n)
    tier1 = [TierOutput(bool(h == r), float(c), 0.001)
             for h, r, c in zip(human, right1, conf1, strict=True)]
    tier2 = [TierOutput(bool(h == r), float(c), 0.02)
             for h, r, c in zip(human, right2, conf2, strict=True)]
    return [bool(h) for h in human], [tier1, tier2]


@dataclass(frozen=True)
class Split:
    fired: bool
    agreement: float
    """The run's agreement with people, before any escalation the check caused."""
    guaranteed: float
    cheap_calls: int
    """Calls of the cheap tier: every item's until a look fired, none after."""
    fired_after: int | None


def _split(seed: int, run_hard: float) -> Split:
    """One split: calibrate on a fresh pool, then a fresh run graded in order with the looks of
    `ShiftLooks` (the runtime's), the cheap tier skipped once a look fired."""
    rng = np.random.default_rng(seed)
    human, outputs = _items(rng, LABELS, 0.03)
    record, _ = calibrate_cascade(human, outputs, SPECS, target=0.9, risk=0.1)
    threshold = record.tiers[0].threshold
    run_human, run_out = _items(rng, RUN, run_hard)
    looks = ShiftLooks([TierSample(t.confidences or [], t.settled) for t in record.tiers])
    agreed = cheap = 0
    for i in range(RUN):
        first, last = run_out[0][i], run_out[1][i]
        settles = threshold is not None and stands(first.confidence, threshold)
        agreed += (first.passed if settles else last.passed) == run_human[i]
        if looks.fired is not None:
            continue  # straight to the last tier: no cheap call
        cheap += 1
        looks.saw(0, first.confidence or 0.0, settles)
        if not settles:
            looks.saw(1, last.confidence or 0.0, True)
    fired = looks.finish().reason() is not None
    return Split(fired, agreed / RUN, record.guaranteed_agreement, cheap, looks.fired_after)


def test_exchangeable_runs_keep_the_guarantee_and_the_check_stays_quiet() -> None:
    results = [_split(seed, 0.03) for seed in range(SPLITS)]
    fired = sum(r.fired for r in results)
    held = sum(r.agreement >= r.guaranteed - 0.02 for r in results)  # 400 items: ±2% of sampling noise
    assert fired <= SPLITS * 0.05, fired
    assert held >= SPLITS * 0.9, held


def test_shifted_runs_are_caught() -> None:
    results = [_split(10_000 + seed, 0.25) for seed in range(SPLITS)]
    fired = sum(r.fired for r in results)
    broken = sum(r.agreement < r.guaranteed for r in results)
    assert fired >= SPLITS * 0.95, fired
    assert broken >= SPLITS // 2, broken  # the guarantee printed would have been wrong
    # caught at an interim look, the rest skip the cheap tier (bench/bench_shift_looks.py)
    early = [r for r in results if r.fired_after is not None and r.fired_after < RUN]
    assert len(early) >= SPLITS * 0.9, len(early)
    assert sum(RUN - r.cheap_calls for r in results) >= SPLITS * RUN // 4
