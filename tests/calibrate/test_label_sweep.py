"""Adding labels keeps the savings fewer labels allowed (issue 35, item 6; docs/cascade.md, "How
a threshold is chosen"): a cheap judge erring about 8% is trusted by at least as many
calibrations, and settles at least as much, as its labels grow from 40 to 400, while the
guarantee still holds; the start the fixed sequence had before did not (support/label_sweep.py).
"""

from __future__ import annotations

import pytest
from support.label_sweep import JUDGES, RISK, sweep

from mcptest.calibrate.cascade import counts_tested, fixed_sequence, start

REPS = 200


def test_the_start_grows_a_step_at_a_time_within_a_third_of_the_labels() -> None:
    firsts = [start(0.1, 0.1 / 3, n) for n in range(33, 1001)]
    assert firsts[0] == 33 and firsts[-1] == 96  # all right on 33; at most 4 wrong of 96
    assert firsts == sorted(firsts)
    assert sorted(set(firsts)) == [33, 51, 66, 81, 96]  # one more disagreement allowed a step
    assert all(f <= max(33, n // 3) for f, n in zip(firsts, range(33, 1001), strict=True))
    assert counts_tested(0.1, 0.1 / 3, 250)[:4] == [81, 96, 109, 123]  # then a step at a time
    assert counts_tested(0.1, 0.1 / 3, 250)[-2:] == [249, 250]  # and last all of them
    assert counts_tested(0.2, 0.2 / 3, 24) == [13, 21, 22, 23, 24]  # each count after the last
    assert counts_tested(0.1, 0.1 / 3, 32) == [] and counts_tested(0.1, 0.1 / 3, 33) == [33]


def test_a_disagreement_between_steps_does_not_end_the_sequence() -> None:
    """On 150 labels the tier is tested on its 33 surest (all right), then its 51 surest (one
    wrong at most): a mistake at the 40th is allowed by the second test, and the counts between
    are not tested. Testing every count stopped at the 40th."""
    points = [(1.0 - i / 1000, i != 39) for i in range(150)]
    found = fixed_sequence(points, 0.1, 0.1 / 3)
    assert found is not None and found.settled == 150 and found.errors == 1
    every = fixed_sequence(points, 0.1, 0.1 / 3, range(33, 151))
    assert every is not None and every.settled == 39


@pytest.mark.parametrize("name", ["sure-clean", "spread"])
def test_more_labels_never_trust_the_cheap_judge_less(name: str) -> None:
    rows = sweep(JUDGES[name], REPS)
    print(name, [(r.labels, f"{r.trusted:.0%}", f"{r.coverage:.0%}") for r in rows])
    trusted = [r.trusted for r in rows]
    coverage = [r.coverage for r in rows]
    assert trusted == sorted(trusted) and coverage == sorted(coverage)
    assert trusted[-1] > 0.9 and coverage[-1] > 0.7  # 400 labels: trusted, settling most
    assert all(r.kept >= 1 - RISK for r in rows)


@pytest.mark.parametrize("name", ["sure-clean", "spread"])
def test_the_old_start_lost_the_judge_at_a_hundred_labels(name: str) -> None:
    """What the change is for: at 97 labels the old start tested nearly all of them first."""
    rows = {r.labels: r for r in sweep(JUDGES[name], REPS, old=True)}
    assert rows[100].trusted < rows[80].trusted - 0.15
    assert rows[100].coverage < rows[80].coverage


def test_the_guarantee_holds_for_a_judge_near_the_line() -> None:
    """A judge whose agreement falls below the target under confidence 1/3: where it is
    trusted, it truly agrees at least the target in at least 1 − risk of calibrations."""
    rows = sweep(JUDGES["borderline"], REPS)
    assert all(r.kept >= 1 - RISK for r in rows)
    assert rows[-1].trusted > 0.5  # and it is trusted where it can be, with enough labels
