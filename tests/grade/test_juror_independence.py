"""Effective jurors (docs/jury.md, "Effective jurors"): Kish's design effect from the jurors'
vote correlation over the run's juries, or from their calibration record's error correlation;
and the simulation that sets where the correlation warning starts (tests/support/juror_sim.py,
the fast version of bench/bench_jurors.py)."""

from __future__ import annotations

from typing import Literal

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
    run_effective_jurors,
    vote_dependence,
    with_effective_jurors,
)
from mcptest.report.models import (
    AssertionResult,
    CalibrationNote,
    JudgeDetail,
    JudgeVote,
    JuryAnalytics,
    Location,
    TestResult,
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


def test_jurors_that_never_voted_are_left_out() -> None:
    juries = [{"a": float(i % 2), "b": float(i % 3 == 0), "deferred": None} for i in range(12)]
    e = vote_dependence(juries)
    assert e.jurors == 2 and e.value is not None and e.items == 12
    alone = vote_dependence([{"a": 1.0, "deferred": None}] * 12)
    assert (alone.jurors, alone.value) == (2, None)
    assert alone.note == "fewer than two of these jurors gave a pass/fail vote in the run"


def test_votes_that_never_varied_say_so() -> None:
    e = vote_dependence([{"a": 1.0, "b": 1.0}] * 20)
    assert e.value is None and e.note == "their votes never varied over 20 juries"


def _jury(kind: Literal["llm-jury", "eval"], votes: dict[str, list[bool]]) -> JudgeDetail:
    n = sum(len(v) for v in votes.values())
    return JudgeDetail(
        kind=kind,
        votes=[JudgeVote(model=m, score=0.9 if p else 0.1, passed=p, repetition=r)
               for m, said in votes.items() for r, p in enumerate(said)],
        jury=JuryAnalytics(agreement=None, agreement_raw=None, units=0, same_family=False,
                           decisive=n, passed_jurors=0, passed_fraction=None, quorum=0.5,
                           verdict="passed"))


def _row(i: int, judge: JudgeDetail, *, eval_row: bool = False,
         note: CalibrationNote | None = None) -> TestResult:
    where = Location(file="s.yml", line=1)
    assertions = [] if eval_row else [AssertionResult(
        index=0, target="t", matcher="llm-jury", status="passed", judge=judge,
        calibration=note)]
    return TestResult(id=f"s::{i}", name=f"t{i}", suite_file="s.yml", location=where,
                      status="passed", assertions=assertions, judge=judge if eval_row else None)


def test_every_jury_of_the_run_gets_its_jurors_figure() -> None:
    """Twelve rows of a jury where a and b always vote alike and c votes on its own; an eval
    asking one model three times whose three gradings always agree; and a jury whose record
    says what its jurors' errors are worth."""
    rows = [_row(i, _jury("llm-jury", {"a": [i % 3 != 0], "b": [i % 3 != 0],
                                       "c": [i % 2 == 1]})) for i in range(12)]
    rows += [_row(20 + i, _jury("eval", {"m": [i % 2 == 0] * 3}), eval_row=True)
             for i in range(12)]
    note = CalibrationNote(state="calibrated", advisory=False, record="r.json", labels=60,
                           effective_jurors=2.16)
    rows += [_row(40, _jury("llm-jury", {"x": [True], "y": [True], "z": [False]}), note=note)]
    out = with_effective_jurors(rows)
    juries = [(t.assertions[0].judge if t.assertions else t.judge) for t in out]
    figures = [j.jury.effective_jurors for j in juries if j is not None and j.jury is not None]
    assert len(figures) == 25
    assert {(f.basis, f.jurors, f.value, f.items) for f in figures[:12]} == {
        ("votes", 3, 1.8, 12)}
    assert {(f.basis, f.jurors, f.value) for f in figures[12:24]} == {("votes", 3, 1.0)}
    labels = figures[24]
    assert (labels.basis, labels.jurors, labels.value, labels.items) == ("labels", 3, 2.16, 60)
    assert labels.mean_correlation == pytest.approx((3 / 2.16 - 1) / 2, abs=1e-6)
    stale = rows[-1].model_copy(update={"assertions": [rows[-1].assertions[0].model_copy(
        update={"calibration": note.model_copy(update={"state": "stale"})})]})
    (again,) = with_effective_jurors([stale])
    judged = again.assertions[0].judge
    assert judged is not None and judged.jury is not None
    e = judged.jury.effective_jurors
    assert e is not None and e.basis == "votes" and e.value is None  # a stale record is not used
    jurors, worth = run_effective_jurors(out)
    assert jurors == 3 and worth == pytest.approx((12 * 1.8 + 12 * 1.0 + 2.16) / 25, abs=1e-3)


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
