"""Jury analytics: alpha against the `krippendorff` package, hand-computed values, the quorum."""

from __future__ import annotations

import math
import random
import statistics

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from mcptest.grade.agreement import decision_agreement
from mcptest.grade.jury import (
    confidence_band,
    jury_agreement,
    jury_analytics,
    krippendorff_alpha_interval,
    passed_fraction,
    quorum_met,
    run_agreement,
)
from mcptest.report.models import JuryAnalytics

# ---------------------------------------------------------------------------------------------
# multi-unit alpha == the krippendorff package

GRID = st.integers(min_value=0, max_value=20).map(lambda k: k / 20)  # juror-like scores
FREE = st.floats(min_value=0.0, max_value=1.0, allow_nan=False, allow_subnormal=False)


def _matrices(values: st.SearchStrategy[float]) -> st.SearchStrategy[list[list[float | None]]]:
    cell = st.one_of(st.none(), values, values, values)  # about one rating in four missing
    return st.integers(2, 6).flatmap(
        lambda raters: st.integers(2, 9).flatmap(
            lambda units: st.lists(
                st.lists(cell, min_size=units, max_size=units), min_size=raters, max_size=raters
            )
        )
    )


def _package_alpha(ratings: list[list[float | None]]) -> float | None:
    """The package's value, or None where it is undefined (it raises or returns NaN)."""
    data = np.array([[np.nan if v is None else v for v in row] for row in ratings], dtype=float)
    try:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = float(krippendorff.alpha(reliability_data=data,
                                             level_of_measurement="interval"))
    except ValueError:  # one value in the whole domain, or no unit rated twice
        return None
    return None if math.isnan(value) else value


def _check_against_package(ratings: list[list[float | None]]) -> None:
    ours = krippendorff_alpha_interval(ratings)
    theirs = _package_alpha(ratings)
    # Undefined in exactly the same cases: no unit rated twice, or no pairable disagreement.
    assert (ours is None) == (theirs is None), (ours, theirs)
    if ours is not None and theirs is not None:
        assert abs(ours - theirs) <= 1e-9


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(_matrices(GRID))
def test_alpha_matches_package_on_grid_scores(ratings: list[list[float | None]]) -> None:
    _check_against_package(ratings)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(_matrices(FREE))
def test_alpha_matches_package_on_free_floats(ratings: list[list[float | None]]) -> None:
    _check_against_package(ratings)


@pytest.mark.slow
@settings(max_examples=100, deadline=None)
@given(_matrices(GRID), st.randoms(use_true_random=False))
def test_alpha_ignores_which_juror_gave_which_value(
    ratings: list[list[float | None]], rnd: random.Random
) -> None:
    """Shuffling a unit's ratings among raters leaves alpha unchanged (why run_agreement
    needs no juror matching)."""
    columns = [list(col) for col in zip(*ratings, strict=True)]
    for col in columns:
        rnd.shuffle(col)
    shuffled = [list(row) for row in zip(*columns, strict=True)]
    before, after = krippendorff_alpha_interval(ratings), krippendorff_alpha_interval(shuffled)
    assert (before is None) == (after is None)
    if before is not None and after is not None:
        assert after == pytest.approx(before, abs=1e-12)


@pytest.mark.slow
def test_alpha_matches_package_on_a_long_free_form_run() -> None:
    """Many distinct values take the linear-time path; it must agree as well."""
    rnd = random.Random(7)
    ratings: list[list[float | None]] = [
        [None if rnd.random() < 0.1 else rnd.random() for _ in range(130)] for _ in range(3)
    ]
    theirs = _package_alpha(ratings)
    assert theirs is not None
    assert krippendorff_alpha_interval(ratings) == pytest.approx(theirs, abs=1e-9)
    per_assertion = [[[row[u]] for row in ratings] for u in range(130)]
    assert run_agreement(per_assertion) == pytest.approx(theirs, abs=1e-9)


def test_alpha_matches_krippendorffs_published_example() -> None:
    n = None
    data = [
        [n, n, n, n, n, 3, 4, 1, 2, 1, 1, 3, 3, n, 3],
        [1, n, 2, 1, 3, 3, 4, 3, n, n, n, n, n, n, n],
        [n, n, 2, 1, 3, 4, 4, n, 2, 1, 1, 3, 3, n, 4],
    ]
    assert krippendorff_alpha_interval(data) == pytest.approx(0.810845, abs=1e-6)


def test_alpha_degenerate_cases_are_none() -> None:
    assert krippendorff_alpha_interval([[0.5, 0.7]]) is None  # one rater
    assert krippendorff_alpha_interval([[0.5, None], [None, 0.7]]) is None  # nothing paired
    assert krippendorff_alpha_interval([[0.5, 0.5], [0.5, 0.5]]) is None  # 0/0
    assert krippendorff_alpha_interval([]) is None
    with pytest.raises(ValueError):
        krippendorff_alpha_interval([[0.5, math.inf], [0.5, 0.4]])


# ---------------------------------------------------------------------------------------------
# jury_agreement: the rules of docs/jury.md


def test_single_unit_hand_computed_split() -> None:
    # scores 0.9, 0.4, 0.1: mean 0.4667; deviations 0.4333, -0.0667, -0.3667;
    # squares 0.18778 + 0.00444 + 0.13444 = 0.32667; s² = 0.32667 / 2 = 0.16333;
    # alpha = 1 - 0.16333 / (1/12) = 1 - 1.96 = -0.96 → clipped to 0.
    clipped, raw, units = jury_agreement([[0.9], [0.4], [0.1]])
    assert raw == pytest.approx(-0.96, abs=1e-12)
    assert clipped == 0.0
    assert units == 1


def test_single_unit_hand_computed_close_scores() -> None:
    # 0.8, 0.9, 0.85: mean 0.85, deviations ±0.05 and 0; s² = 0.005/2 = 0.0025;
    # alpha = 1 - 12 · 0.0025 = 0.97 → high.
    clipped, raw, units = jury_agreement([[0.8], [0.9], [0.85]])
    assert raw == pytest.approx(0.97, abs=1e-12)
    assert clipped == raw
    assert units == 1
    assert confidence_band(raw) == "high"


def test_single_unit_two_jurors_medium() -> None:
    # 0.7, 0.9: s² = 0.2²/2 = 0.02; alpha = 1 - 12 · 0.02 = 0.76 → medium.
    _, raw, _ = jury_agreement([[0.7], [0.9]])
    assert raw == pytest.approx(0.76, abs=1e-12)
    assert confidence_band(raw) == "medium"


def test_single_unit_pass_fail_extremes() -> None:
    # pass/fail jurors score 1.0 and 0.0: s² = 0.5, alpha = 1 - 6 = -5.
    clipped, raw, _ = jury_agreement([[1.0], [0.0]])
    assert raw == pytest.approx(-5.0)
    assert clipped == 0.0


@settings(max_examples=100, deadline=None)
@given(st.lists(FREE, min_size=2, max_size=7))
def test_single_unit_equals_uniform_prior_formula(scores: list[float]) -> None:
    _, raw, units = jury_agreement([[s] for s in scores])
    if len(set(scores)) == 1:
        assert raw == 1.0
    else:
        assert raw == pytest.approx(1 - statistics.variance(scores) * 12, abs=1e-9)
    assert units == 1


@settings(max_examples=100, deadline=None)
@given(_matrices(GRID))
def test_jury_agreement_multi_unit_is_package_alpha(ratings: list[list[float | None]]) -> None:
    clipped, raw, units = jury_agreement(ratings)
    pairable = sum(
        1 for col in zip(*ratings, strict=True) if sum(v is not None for v in col) >= 2
    )
    assert units == pairable
    if pairable >= 2:
        theirs = _package_alpha(ratings)
        assert raw == (1.0 if theirs is None else pytest.approx(theirs, abs=1e-9))
    if raw is None:
        assert clipped is None and pairable == 0
    else:
        assert clipped == min(1.0, max(0.0, raw))


def test_multi_unit_hand_computed() -> None:
    # units {0.2, 0.4} and {0.8, 0.6}, n = 4.
    # D_o = (2/4)·(0.04/1 + 0.04/1) = 0.04;  pooled pairs (0.2,0.4,0.6,0.8): squared
    # differences .04+.16+.36+.04+.16+.04 = 0.8, D_e = 2·0.8/(4·3) = 0.1333;
    # alpha = 1 - 0.04/0.1333 = 0.7.
    clipped, raw, units = jury_agreement([[0.2, 0.8], [0.4, 0.6]])
    assert raw == pytest.approx(0.7, abs=1e-12)
    assert clipped == pytest.approx(0.7, abs=1e-12)
    assert units == 2


def test_multi_unit_uses_textbook_alpha() -> None:
    ratings: list[list[float | None]] = [[0.9, 0.2, 0.5, None], [0.8, 0.1, 0.7, 0.3],
                                         [1.0, 0.3, None, 0.2]]
    _, raw, units = jury_agreement(ratings)
    assert raw == pytest.approx(_package_alpha(ratings), abs=1e-9)
    assert units == 4


def test_identical_ratings_are_full_agreement() -> None:
    assert jury_agreement([[0.8], [0.8], [0.8]]) == (1.0, 1.0, 1)
    assert jury_agreement([[0.8, 0.3], [0.8, 0.3]]) == (1.0, 1.0, 2)
    # pairable ratings identical, the unit rated once differs: still no disagreement
    assert jury_agreement([[0.5, 0.2], [0.5, None]]) == (1.0, 1.0, 1)


def test_fewer_than_two_jurors_is_undefined() -> None:
    assert jury_agreement([[0.9]]) == (None, None, 0)
    assert jury_agreement([[0.9, 0.8]]) == (None, None, 0)
    assert jury_agreement([[0.9], [None]]) == (None, None, 0)  # the other abstained
    assert jury_agreement([[0.9, None], [None, 0.4]]) == (None, None, 0)


def test_units_rated_once_are_not_counted() -> None:
    # unit 2 only has one rating: one pairable unit → uniform-prior variant on unit 1
    clipped, raw, units = jury_agreement([[0.7, 0.1], [0.9, None]])
    assert units == 1
    assert raw == pytest.approx(0.76, abs=1e-12)
    assert clipped == raw


# ---------------------------------------------------------------------------------------------
# bands


@pytest.mark.parametrize(
    ("alpha", "band"),
    [
        (1.0, "high"), (0.8, "high"), (0.7999999999999998, "high"),  # float noise on the line
        (0.7999, "medium"), (0.667, "medium"), (0.6670000000000001, "medium"),
        (0.6669, "low"), (0.0, "low"), (-0.96, "low"), (None, "low"), (math.nan, "low"),
    ],
)
def test_confidence_bands(alpha: float | None, band: str) -> None:
    assert confidence_band(alpha) == band


# ---------------------------------------------------------------------------------------------
# quorum


@pytest.mark.parametrize(
    ("passed", "decisive", "quorum", "met"),
    [
        (2, 3, 0.67, True),   # 2/3 = 0.667 → 0.67 ≥ 0.67
        (1, 3, 0.67, False),  # 1/3 → 0.33
        (2, 4, 0.5, True),    # even split passes the default quorum
        (2, 4, 0.6, False),   # …and fails a quorum above one half
        (3, 3, 1.0, True),
        (2, 3, 1.0, False),   # unanimity: one dissent fails
        (4, 5, 1.0, False),
        (0, 3, 0.0, True),    # quorum 0: anything decided passes
        (0, 0, 0.0, False),   # nobody decided
        (0, 0, 0.5, False),
        (1, 8, 0.13, True),   # 0.125 rounds half-up to 0.13
        (5, 8, 0.63, True),   # 0.625 → 0.63
        (2, 3, 0.68, False),
    ],
)
def test_quorum_worked_examples(passed: int, decisive: int, quorum: float, met: bool) -> None:
    assert quorum_met(passed, decisive, quorum) is met


def test_passed_fraction_and_bad_counts() -> None:
    assert passed_fraction(2, 3) == 0.67
    assert passed_fraction(1, 3) == 0.33
    assert passed_fraction(0, 0) is None
    with pytest.raises(ValueError):
        quorum_met(4, 3, 0.5)
    with pytest.raises(ValueError):
        quorum_met(-1, 3, 0.5)


# ---------------------------------------------------------------------------------------------
# jury_analytics


def _analytics(
    ratings: list[list[float | None]],
    *,
    jurors: list[str] | None = None,
    generator: str | None = None,
    passed: int = 2,
    decisive: int = 3,
    verdict: str = "passed",
) -> JuryAnalytics:
    votes = [None if not [v for v in row if v is not None]
             else statistics.median(v for v in row if v is not None) >= 0.7 for row in ratings]
    rows = [row for row, v in zip(ratings, votes, strict=True) if v is not None]
    agreement = decision_agreement(rows, [() for _ in rows], [v for v in votes if v is not None],
                                   2)
    return jury_analytics(
        agreement,
        juror_models=jurors or ["gpt-4o-mini", "claude-3-5-haiku", "gemini-2.0-flash"],
        generator_model=generator,
        quorum=0.5,
        passed_jurors=passed,
        decisive=decisive,
        verdict=verdict,
    )


def test_analytics_split_jury_escalates_and_keeps_verdict() -> None:
    result = _analytics([[0.9], [0.4], [0.1]], passed=1, verdict="failed")
    assert result.agreement == 0.0
    assert result.answers_raw == pytest.approx(-0.96)  # the scores: 1 − 12·s²
    assert result.votes_raw == pytest.approx(-3.0)  # pass, fail, fail: s² = 1/3
    assert result.agreement_raw == pytest.approx(-3.0)  # the lower of the two
    assert result.units == 1
    assert result.confidence == "low"
    assert result.escalate is True
    assert result.verdict == "failed"
    assert result.passed_fraction == 0.33
    assert result.same_family is False  # tool test: no generator
    assert result.bias_warning is None


def test_analytics_confident_jury() -> None:
    result = _analytics([[0.8], [0.9], [0.85]], passed=3)
    assert result.confidence == "high"
    assert result.escalate is False
    assert result.passed_fraction == 1.0
    assert result.decisive == 3 and result.passed_jurors == 3 and result.quorum == 0.5


def test_bias_warning_needs_same_family_and_low_confidence() -> None:
    split = [[0.9], [0.4], [0.1]]
    close = [[0.8], [0.9], [0.85]]
    same = _analytics(split, generator="openai/gpt-4.1", passed=1, verdict="failed")
    assert same.same_family is True
    assert same.bias_warning is not None
    assert "gpt-4o-mini" in same.bias_warning and "openai" in same.bias_warning

    confident = _analytics(close, generator="openai/gpt-4.1", passed=3)
    assert confident.same_family is True
    assert confident.bias_warning is None  # agreement high: nothing to warn about

    other = _analytics(split, generator="mistral/mistral-large-latest", passed=1,
                       verdict="failed")
    assert other.same_family is False
    assert other.escalate is True
    assert other.bias_warning is None


def test_analytics_single_juror_is_undefined_and_low() -> None:
    result = _analytics([[0.9]], jurors=["gpt-4o"], generator="gpt-4o", passed=1, decisive=1)
    assert result.agreement is None and result.agreement_raw is None and result.units == 0
    assert result.confidence == "low" and result.escalate is True
    assert result.same_family is True
    assert result.bias_warning is not None and "undefined" in result.bias_warning


def test_analytics_decisive_below_two_overrides_ratings() -> None:
    # one juror abstained in the tally; its stray rating must not produce an agreement
    result = _analytics([[0.9], [0.9]], passed=1, decisive=1)
    assert result.agreement is None


def test_analytics_no_decisive_juror() -> None:
    result = _analytics([[None], [None]], passed=0, decisive=0, verdict="inconclusive")
    assert result.passed_fraction is None
    assert result.verdict == "inconclusive"


def test_analytics_rejects_unknown_verdict() -> None:
    with pytest.raises(ValidationError):
        _analytics([[0.9], [0.8]], verdict="maybe")


# ---------------------------------------------------------------------------------------------
# run level


def test_run_agreement_units_are_assertions() -> None:
    # assertion 1: jurors 0.9 and 0.8; assertion 2: 0.2 and 0.3; assertion 3: juror means
    # (0.5+0.6)/2 = 0.55 and 0.5. Equals textbook alpha on [[0.9, 0.2, 0.55], [0.8, 0.3, 0.5]].
    per_assertion = [[[0.9], [0.8]], [[0.2], [0.3]], [[0.5, 0.6], [0.5, None]]]
    expected = _package_alpha([[0.9, 0.2, 0.55], [0.8, 0.3, 0.5]])
    assert expected is not None
    assert run_agreement(per_assertion) == pytest.approx(expected, abs=1e-9)


def test_run_agreement_mixes_panel_sizes_and_skips_lone_jurors() -> None:
    per_assertion = [
        [[0.9], [0.8], [1.0]],
        [[0.1], [0.2]],
        [[0.7], [None]],  # one rating: cannot be paired, left out
    ]
    expected = _package_alpha([[0.9, 0.1], [0.8, 0.2], [1.0, None]])
    assert expected is not None
    assert run_agreement(per_assertion) == pytest.approx(expected, abs=1e-9)


def test_run_agreement_is_raw_and_uses_spec_rules() -> None:
    # systematic disagreement stays negative at run level: units {1, 0} and {0, 1};
    # D_o = (2/4)·(1 + 1) = 1, D_e = 2·4/(4·3) = 2/3, alpha = 1 - 1.5 = -0.5
    assert run_agreement([[[1.0], [0.0]], [[0.0], [1.0]]]) == pytest.approx(-0.5)
    assert run_agreement([[[0.7], [0.9]]]) == pytest.approx(0.76)  # one unit: uniform prior
    assert run_agreement([[[0.6], [0.6]], [[0.6], [0.6]]]) == 1.0
    assert run_agreement([]) is None
    assert run_agreement([[[0.9]], [[0.1]]]) is None


def test_the_run_alpha_bootstrap_sums_give_the_textbook_alpha() -> None:
    """The run-level interval resamples juries by their sums; on the whole run those sums give
    exactly `run_agreement`, and the all-agree rule holds (docs/jury.md, "Run-level agreement")."""
    from mcptest.grade.run_alpha import _alpha, _unit, run_alpha

    rng = random.Random(5)
    for _ in range(50):
        per = [[[rng.random()] for _ in range(rng.randint(2, 4))] for _ in range(rng.randint(2, 9))]
        sums = [_unit([row[0] for row in jury]) for jury in per]
        n, total, squares, within = (sum(c) for c in zip(*sums, strict=True))
        assert _alpha(n, total, squares, within) == pytest.approx(run_agreement(per), abs=1e-9)
    same = run_alpha([[[0.6], [0.6]], [[0.3], [0.3]]])
    assert same is not None
    assert (same.alpha, same.juries, same.unanimous, same.band) == (1.0, 2, 2, "high")
    lone = run_alpha([[[0.6], [0.7]]])
    assert lone is not None and lone.ci95 is None  # one jury: nothing to resample


def test_juries_all_alike_give_the_interval_the_draws_give() -> None:
    """Without drawing when every jury is alike: the same interval as the 1,000 resamples."""
    from mcptest.grade.run_alpha import RESAMPLES, _draws, _unit, run_alpha
    from mcptest.stats.intervals import SEED, quantile

    for jury in ([0.9, 0.9, 0.9], [0.9, 0.2, 0.9], [1.0, 0.0]):
        got = run_alpha([[[v] for v in jury]] * 40)
        draws = _draws([_unit(jury)] * 40, RESAMPLES, SEED)
        assert got is not None and got.ci95 == (round(quantile(draws, 0.025), 6),
                                                round(quantile(draws, 0.975), 6))
        assert got.alpha is not None and got.ci95 == (round(got.alpha, 6),) * 2
