"""Effective jurors (docs/jury.md, "Effective jurors"): Kish's design effect from the jurors'
vote correlation over the run's juries, or from their calibration record's error correlation;
and the simulation that sets where the correlation warning starts (tests/support/juror_sim.py,
the fast version of bench/bench_jurors.py)."""

from __future__ import annotations

import numpy as np
import pytest
from support.juror_sim import first_misleading, simulate

from mcptest.calibrate.correlation import (
    CORRELATED_ERRORS,
    SHARED_ERRORS,
    ErrorCorrelation,
    erring_together,
)
from mcptest.grade.juror_independence import (
    MIN_JURIES,
    design_effect,
    vote_dependence,
)


def test_the_design_effect_is_kish_s() -> None:
    assert design_effect(3, [0.0, 0.0, 0.0]) == 3
    assert design_effect(3, [1.0, 1.0, 1.0]) == 1
    assert design_effect(3, [0.6, 0.0, 0.0]) == pytest.approx(3 / 1.4, abs=1e-3)
    assert design_effect(2, [-0.5]) == 2  # errors that avoid each other are not worth more
    assert design_effect(3, []) is None and design_effect(1, [0.5]) is None


def test_votes_that_go_together_count_as_fewer_jurors() -> None:
    rng = np.random.default_rng(1)
    truth = rng.random(60) < 0.5
    a = truth ^ (rng.random(60) < 0.2)
    juries = [{"a": float(x), "b": float(x), "c": float(t ^ (r < 0.2))}
              for x, t, r in zip(a, truth, rng.random(60), strict=True)]
    e = vote_dependence(juries)
    assert e.basis == "votes" and e.jurors == 3 and e.items == 60 and e.note is None
    expected = np.mean([max(0.0, np.corrcoef(*pair)[0, 1]) for pair in (
        ([j["a"] for j in juries], [j["b"] for j in juries]),
        ([j["a"] for j in juries], [j["c"] for j in juries]),
        ([j["b"] for j in juries], [j["c"] for j in juries]))])
    assert e.mean_correlation == pytest.approx(expected, abs=1e-6)
    assert e.value == pytest.approx(3 / (1 + 2 * expected), abs=1e-3)
    assert e.value is not None and e.value < 2


def test_too_few_juries_say_so_rather_than_print_a_number() -> None:
    juries = [{"a": float(i % 2), "b": float(i % 3 == 0)} for i in range(MIN_JURIES - 1)]
    e = vote_dependence(juries)
    assert e.value is None and e.mean_correlation is None
    assert e.note == f"{MIN_JURIES - 1} juries of these jurors in the run, {MIN_JURIES} needed"
    assert vote_dependence([{"a": 1.0, "b": 0.0}]).note == (
        f"1 jury of these jurors in the run, {MIN_JURIES} needed")


def test_votes_that_never_varied_say_so() -> None:
    e = vote_dependence([{"a": 1.0, "b": 1.0}] * 20)
    assert e.value is None and e.note == "their votes never varied over 20 juries"


def _pair(rho: float) -> ErrorCorrelation:
    return ErrorCorrelation(jurors=("a", "b"), correlation=rho, labels=40, errors=(8, 8),
                            both_wrong=5)


def test_the_issue_s_pair_at_0_58_warns_and_an_independent_one_does_not() -> None:
    """Issue 35: two jurors whose errors correlate at 0.58 raised α from 0.40 to 0.55 while
    accuracy fell, and the warning then started at 0.7."""
    warned = erring_together([_pair(0.58)], 2.3, 3)
    assert len(warned) == 1 and "jurors a and b err together" in warned[0]
    assert "correlate 0.58" in warned[0] and "worth 2.3 independent ones" in warned[0]
    assert erring_together([_pair(0.05)], 2.9, 3) == []


def test_a_blind_spot_every_pair_shares_warns_once() -> None:
    pairs = [ErrorCorrelation(jurors=ab, correlation=0.2, labels=40, errors=(8, 8),
                              both_wrong=3) for ab in (("a", "b"), ("a", "c"), ("b", "c"))]
    warned = erring_together(pairs, 2.1, 3)
    assert warned == [f"the 3 jurors err together: their errors against the human labels "
                      f"correlate 0.20 on average (a band overstates the jury from "
                      f"{SHARED_ERRORS}); the 3 jurors are worth 2.1 independent ones; "
                      "replace some with jurors of other families"]


def test_the_warning_starts_where_the_simulation_shows_the_band_misleads() -> None:
    """A coarse, seeded run of bench/bench_jurors.py (0.05 steps, 1,000 runs a cell: the table
    in docs/jury.md): independent jurors' runs are rarely misled; the band rises as the accuracy
    falls; one pair misleads it from about `CORRELATED_ERRORS`, every pair from about
    `SHARED_ERRORS`."""
    rhos = [0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 0.9]
    starts = {}
    for shape in ("pair", "all"):
        rows = simulate(rhos, shape=shape, runs=100)
        assert rows[0].misled < 0.3  # independent: the band and the accuracy move together
        assert rows[-1].alpha > rows[0].alpha + 0.1 and rows[-1].accuracy < rows[0].accuracy
        assert rows[-1].error_correlation == pytest.approx(0.9, abs=0.05)
        starts[shape] = first_misleading(rows)
    assert starts["pair"] == pytest.approx(CORRELATED_ERRORS, abs=0.1)
    assert starts["all"] == pytest.approx(SHARED_ERRORS, abs=0.1)
    assert CORRELATED_ERRORS < 0.58
