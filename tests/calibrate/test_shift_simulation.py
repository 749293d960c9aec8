"""The cascade's guarantee and the check of its assumption, simulated (docs/cascade.md, "When
the guarantee does not apply"): every split draws a fresh pool of labelled items and a fresh
run, from a world where a cheap judge is sure and right on easy items and unsure and often wrong
on hard ones. Calibrated on items with 3% hard cases: on a run like the labels the guarantee
holds and the shift check stays quiet (at most 5% of runs); on a run with 25% hard cases the
check fires in at least 95% of runs.
"""

from __future__ import annotations

import numpy as np

from mcptest.calibrate.cascade import TierOutput, TierSpec, calibrate_cascade
from mcptest.calibrate.shift import TierSample, check_shift
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


def _split(seed: int, run_hard: float) -> tuple[bool, float, float]:
    """(the check fired, the run's agreement with people, the guaranteed agreement)."""
    rng = np.random.default_rng(seed)
    human, outputs = _items(rng, LABELS, 0.03)
    record, _ = calibrate_cascade(human, outputs, SPECS, target=0.9, risk=0.1)
    threshold = record.tiers[0].threshold
    run_human, run_out = _items(rng, RUN, run_hard)
    first = run_out[0]
    settled = [i for i in range(RUN) if threshold is not None
               and stands(first[i].confidence, threshold)]
    escalated = [i for i in range(RUN) if i not in set(settled)]
    verdict = {i: first[i].passed for i in settled}
    verdict.update({i: run_out[1][i].passed for i in escalated})
    agreement = sum(verdict[i] == run_human[i] for i in range(RUN)) / RUN
    labels = [TierSample(t.confidences or [], t.settled) for t in record.tiers]
    run = [TierSample([o.confidence or 0.0 for o in first], len(settled)),
           TierSample([run_out[1][i].confidence or 0.0 for i in escalated], len(escalated))]
    fired = check_shift(labels, run).reason() is not None
    return fired, agreement, record.guaranteed_agreement


def test_exchangeable_runs_keep_the_guarantee_and_the_check_stays_quiet() -> None:
    results = [_split(seed, 0.03) for seed in range(SPLITS)]
    fired = sum(f for f, _, _ in results)
    held = sum(a >= g - 0.02 for _, a, g in results)  # 400 items: ±2% of sampling noise
    assert fired <= SPLITS * 0.05, fired
    assert held >= SPLITS * 0.9, held


def test_shifted_runs_are_caught() -> None:
    results = [_split(10_000 + seed, 0.25) for seed in range(SPLITS)]
    fired = sum(f for f, _, _ in results)
    broken = sum(a < g for _, a, g in results)
    assert fired >= SPLITS * 0.95, fired
    assert broken >= SPLITS // 2, broken  # the guarantee printed would have been wrong
