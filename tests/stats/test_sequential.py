"""The confidence sequence and adaptive repeats' stopping rule (mcptest.stats.sequential): valid
at every run at once, and on rows with known pass rates the same decisions as a fixed ten
repeats with at most half the runs (tests/support/repeat_simulation.py)."""

from __future__ import annotations

import random

import pytest
from support.repeat_simulation import simulate

from mcptest.stats.intervals import wilson
from mcptest.stats.sequential import (
    Settled,
    confidence_sequence,
    fixed_need,
    log_mixture_ratio,
    needs_repeats,
    settle,
)


def test_the_sequence_narrows_around_the_rate() -> None:
    assert confidence_sequence(0, 0) == (0.0, 1.0)
    low, high = confidence_sequence(70, 100)
    assert 0.5 < low < 0.7 < high < 0.85
    wide = confidence_sequence(7, 10)
    assert wide[0] < low and wide[1] > high
    # all passes: the upper end is 1, the lower one climbs
    assert confidence_sequence(20, 20)[1] == 1.0
    assert confidence_sequence(40, 40)[0] > confidence_sequence(20, 20)[0]
    # one failure rules out a rate of 1
    assert confidence_sequence(9, 10)[1] < 1.0
    assert log_mixture_ratio(9, 10, 1.0) == float("inf")


def test_it_holds_at_every_run_at_once() -> None:
    """1,000 seeded sequences of 200 runs at each rate, the interval checked after every run:
    the share that ever excludes the true rate stays under α = 0.05 (Ville's inequality), where
    a fixed 95% interval checked as often would be wrong far more often."""
    for rate in (0.5, 0.8, 0.95):
        rng = random.Random(int(rate * 100))
        ever = 0
        for _ in range(1000):
            passes = 0
            for n in range(1, 201):
                passes += rng.random() < rate
                if log_mixture_ratio(passes, n, rate) >= 2.995732273553991:  # log(1/0.05)
                    ever += 1
                    break
        assert ever / 1000 <= 0.05, (rate, ever)


@pytest.mark.parametrize(("passes", "runs", "threshold", "decision", "by"), [
    (0, 1, 1.0, "not-met", "sequence"),  # one failure: a rate of 1 is out
    (1, 1, 1.0, None, None),
    (10, 10, 1.0, "met", "limit"),
    (8, 8, 0.8, "met", "curtailed"),  # 8 of 10 can no longer be missed
    (4, 7, 0.8, "not-met", "curtailed"),  # 4 + 3 < 8
    (0, 4, 0.8, "not-met", "sequence"),
    (5, 6, 0.8, None, None),
])
def test_settle(passes: int, runs: int, threshold: float, decision: str | None,
                by: str | None) -> None:
    v = settle(passes, runs, threshold, most=10)
    assert (v.decision, v.by) == (decision, by)


def test_which_rows_stay_open_after_one_run() -> None:
    assert not needs_repeats(True, True)
    assert not needs_repeats(True, None)
    assert needs_repeats(False, False)  # failing: is it below its threshold?
    assert needs_repeats(True, False)  # changed against the baseline
    assert needs_repeats(True, True, score=0.75, threshold=0.7)  # near its threshold
    assert not needs_repeats(True, True, score=0.95, threshold=0.7)


@pytest.mark.parametrize("threshold", [1.0, 0.8, 0.6])
def test_adaptive_repeats_decide_as_ten_fixed_ones_with_at_most_half_the_runs(
        threshold: float) -> None:
    """1,000 rows of known pass rates (tests/support/repeat_simulation.MIX): measured 96.0%,
    98.3% and 98.4% agreement at 15%, 22% and 26% of the fixed count's runs."""
    o = simulate(rows=1000, fixed=10, threshold=threshold)
    assert o.agree / o.rows >= 0.95, o
    assert o.adaptive_runs <= o.fixed_runs / 2, o


def test_the_fixed_count_on_the_lower_bound_needs_more_passes() -> None:
    """The default gate holds Wilson's lower end (docs/baseline.md): 9 of 10 show 0.5, no count
    of 10 shows 0.8 (16 of 16 do), and a threshold of 1 stays the count."""
    assert [fixed_need(0.5, 10, True), fixed_need(0.8, 10, True), fixed_need(0.8, 16, True),
            fixed_need(1.0, 10, True), fixed_need(0.8, 10)] == [9, 11, 16, 10, 8]
    assert settle(5, 6, 0.5, 10) == Settled("met", "curtailed")
    assert settle(5, 6, 0.5, 10, on_lower_bound=True) == Settled(None, None)
    assert settle(1, 1, 0.8, 10, on_lower_bound=True) == Settled("not-met", "curtailed")


def test_a_row_stopped_on_the_lower_bound_meets_its_merged_gate_exactly_when_it_stopped_met(
        ) -> None:
    """Whatever stopped an adaptive row (sequence, curtailment, its MAX-th run), the gate of the
    runs it took (Wilson's lower end of them) says the same: it never stops "met" and then
    fails."""
    for most in (3, 5, 10, 16, 20):
        for threshold in [i / 10 for i in range(1, 10)]:
            for runs in range(1, most + 1):
                for passes in range(runs + 1):
                    v = settle(passes, runs, threshold, most, on_lower_bound=True)
                    if v.decision is None:
                        continue
                    low = wilson(passes, runs)
                    assert low is not None
                    assert (v.decision == "met") == (low[0] >= threshold - 1e-12), \
                        (most, threshold, runs, passes, v)
