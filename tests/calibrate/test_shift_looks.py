"""The shift check's looks during a run (calibrate/shift_looks.py): where they fall, the level
each spends (never more than the whole check's in all), and a shift found at a look."""

from __future__ import annotations

import random

import pytest

from mcptest.calibrate.shift import SHIFT_LEVEL, TierSample
from mcptest.calibrate.shift_looks import ShiftLooks


def _labels(rng: random.Random) -> list[TierSample | None]:
    confidences = [rng.betavariate(8, 2) for _ in range(500)]
    return [TierSample(confidences, sum(c >= 0.5 for c in confidences)), None]


def test_looks_fall_at_30_60_120_and_spend_less_than_half_the_level() -> None:
    rng = random.Random(1)
    looks = ShiftLooks(_labels(rng))
    made = []
    for n in range(1, 1000):
        before = looks.looks
        c = rng.betavariate(8, 2)
        looks.saw(0, c, c >= 0.5)
        if looks.looks > before:
            made.append(n)
    assert made[:4] == [30, 60, 120, 240] and made[-1] == 960
    assert looks.spent == pytest.approx(SHIFT_LEVEL * sum(2.0 ** -(j + 2) for j in range(6)))
    assert looks.spent < SHIFT_LEVEL / 2 and looks.fired is None
    final = looks.finish()  # the rest of the level: at least half of it
    assert final.level == pytest.approx((SHIFT_LEVEL - looks.spent) / len(final.findings))


def test_a_shift_is_found_at_a_look_and_stays_found() -> None:
    rng = random.Random(2)
    looks = ShiftLooks(_labels(rng))
    for _ in range(60):  # sure on the labels, barely over the line here
        c = rng.betavariate(2, 5)
        looks.saw(0, c, c >= 0.5)
    assert looks.fired is not None and looks.early and looks.fired_after == 30
    said = looks.fired.reason()
    assert said is not None and "tier 1 confidence p = " in said
    assert looks.finish() is looks.fired  # later answers change nothing
    assert len(looks.confidences[0]) == 30  # nor are they kept
