"""Each tier's threshold by fixed-sequence testing, and the agreement the thresholds guarantee
(calibrate/cascade.py; docs/cascade.md, "Trust or escalate")."""

from __future__ import annotations

import pytest
from support.cascade_sim import SPECS, one_split

from mcptest.calibrate.binomial import upper_bound
from mcptest.calibrate.cascade import (
    TierOutput,
    TooFewLabels,
    calibrate_cascade,
    check_labels,
    fixed_sequence,
    labels_for_guarantee,
    start,
)
from mcptest.grade.confidence import margin, stands


def test_margin_is_the_share_of_the_room_on_its_side() -> None:
    assert margin(0.7, 0.7) == 0.0 and margin(1.0, 0.7) == 1.0 and margin(0.0, 0.7) == 1.0
    assert margin(0.85, 0.7) == pytest.approx(0.5) and margin(0.35, 0.7) == pytest.approx(0.5)
    assert margin(2 / 3, 0.5) == pytest.approx(1 / 3)  # a 2-1 jury at quorum 0.5
    assert stands(0.5, 0.5) and not stands(0.49, 0.5)
    assert not stands(0.9, None) and not stands(None, 0.1)  # no threshold: never trusted


def test_a_judge_that_never_errs_settles_everything() -> None:
    points = [(i / 100, True) for i in range(100)]
    found = fixed_sequence(points, 0.1, 0.05)
    assert found is not None and found.value == 0.0 and found.settled == 100


def test_the_threshold_stops_above_the_unsure_mistakes() -> None:
    sure = [(0.5 + i / 200, True) for i in range(100)]      # confidence 0.5..1, all right
    unsure = [(i / 200, i % 2 == 0) for i in range(100)]     # below 0.5, half wrong
    found = fixed_sequence(sure + unsure, 0.1, 0.05)
    assert found is not None
    assert 0.3 < found.value <= 0.5  # a few unsure ones ride along while the bound allows
    assert upper_bound(found.errors, found.settled, 0.05) <= 0.1


def test_the_sequence_ends_at_its_first_failure() -> None:
    """Mistakes among the most confident stop the testing: the lower thresholds are never
    tested, however clean they are (what makes the procedure valid)."""
    first = start(0.1, 0.05, 400)
    wrong_on_top = [(1.0 - i / 1000, i >= 20) for i in range(first)]  # 20 sure mistakes
    clean_below = [(0.5 - i / 1000, True) for i in range(300)]
    assert fixed_sequence(wrong_on_top + clean_below, 0.1, 0.05) is None


def test_too_few_labels_says_how_many() -> None:
    assert labels_for_guarantee(0.9, 0.1, 2) == 33  # δ/3 per bound: ln(0.0333) / ln(0.9) = 32.3
    check_labels(33, 0.9, 0.1, 2)
    with pytest.raises(TooFewLabels) as e:
        check_labels(20, 0.9, 0.1, 2)
    assert "at least 33" in str(e.value) and "add 13" in str(e.value)
    with pytest.raises(TooFewLabels):
        calibrate_cascade([True] * 20, [[TierOutput(True, 1.0)] * 20] * 2, SPECS, 0.9, 0.1)


def test_a_weak_last_tier_lowers_the_guarantee() -> None:
    """The last tier decides what reaches it: the guarantee can only be as good as it is there."""
    n = 300
    human = [i % 2 == 0 for i in range(n)]
    cheap = [TierOutput(h, 1.0) if i < 150 else TierOutput(not h, 0.0)
             for i, h in enumerate(human)]
    coin = [TierOutput(h if i % 3 else not h, 0.5) for i, h in enumerate(human)]  # 1/3 wrong
    record, decided = calibrate_cascade(human, [cheap, coin], SPECS, 0.9, 0.1)
    first, last = record.tiers
    assert first.threshold == 1.0 and first.settled == 150 and first.coverage == 0.5
    assert first.guaranteed_agreement == 0.9 and first.agreement == 1.0
    assert last.last and last.threshold is None and last.settled == 150
    assert last.agreement == pytest.approx(2 / 3)
    assert last.guaranteed_agreement is not None and last.guaranteed_agreement < 2 / 3
    assert record.guaranteed_agreement < 0.9
    assert [d[0] for d in decided if d is not None] == [0] * 150 + [1] * 150


def test_a_tier_without_threshold_is_not_paid_for() -> None:
    n = 100
    human = [True] * 50 + [False] * 50
    useless = [TierOutput(i % 2 == 0, 1.0, 0.01) for i in range(n)]
    jury = [TierOutput(h, 1.0, 0.05) for h in human]
    record, _ = calibrate_cascade(human, [useless, jury], SPECS, 0.9, 0.1)
    assert record.tiers[0].threshold is None and record.tiers[0].settled == 0
    assert "more than the 10% allowed" in (record.tiers[0].note or "")
    assert record.cost_per_verdict_usd == pytest.approx(0.05)  # the jury alone
    assert record.guaranteed_agreement == pytest.approx(1 - upper_bound(0, n, 0.1 / 3))


def test_fifty_splits_keep_the_target() -> None:
    """The simulation of docs/cascade.md, each split on a fresh pool of 500 labelled items:
    calibrated on one half, the cascade agrees with the labels of the other half at least as
    often as the target in at least (1 − risk) of 50 seeded splits, for less than the jury
    alone."""
    target, risk = 0.9, 0.1
    splits = [one_split(100 + seed, target, risk) for seed in range(50)]
    kept = sum(s.agreement >= target for s in splits)
    trusted_kept = sum(s.settled == 0 or s.settled_agreed >= target * s.settled for s in splits)
    assert kept >= (1 - risk) * 50
    assert trusted_kept >= (1 - risk) * 50  # the paper's guarantee, for the trusted tier
    assert sum(s.cost for s in splits) < 0.5 * sum(s.jury_cost for s in splits)
    # fresh pools: the cheap judge is right as often as it is drawn to be (84.75%), not as
    # often as one pool happened to make it (89.2% in the pool the splits once shared)
    assert sum(s.cheap_right for s in splits) / 50 == pytest.approx(0.8475, abs=0.01)
