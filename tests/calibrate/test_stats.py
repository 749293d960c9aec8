"""The agreement figures equal the reference implementations: scikit-learn's Cohen's kappa and
the `krippendorff` package's alpha (docs/calibration.md)."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcptest.calibrate.stats import alpha, cohen_kappa, figures, wilson_interval

pairs = st.lists(st.tuples(st.booleans(), st.booleans()), min_size=2, max_size=80)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(pairs)
def test_kappa_equals_scikit_learn(data: list[tuple[bool, bool]]) -> None:
    from sklearn.metrics import cohen_kappa_score  # at use: not in every worker

    a, b = [x for x, _ in data], [y for _, y in data]
    ours = cohen_kappa(a, b)
    if len(set(a) | set(b)) < 2:  # both raters constant on one value: kappa is 0/0
        assert ours is None
        return
    assert ours == pytest.approx(cohen_kappa_score(a, b), abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(pairs)
def test_alpha_with_the_humans_as_a_coder_equals_the_krippendorff_package(
        data: list[tuple[bool, bool]]) -> None:
    human, judge = [float(x) for x, _ in data], [float(y) for _, y in data]
    ours = alpha(human, judge)
    if len(set(human) | set(judge)) < 2:  # everyone agrees on everything: 1.0, as in a jury
        assert ours == 1.0                 # and a run (docs/jury.md, "Edge rules")
        return
    ref = krippendorff.alpha(reliability_data=np.array([human, judge]),
                             level_of_measurement="nominal")
    assert ours == pytest.approx(ref, abs=1e-9)


def test_wilson_interval_matches_the_textbook_values() -> None:
    # Wilson (1927) / Newcombe (1998) example: 81 of 263 → [0.2553, 0.3662]
    ci = wilson_interval(81, 263)
    assert ci is not None
    assert (round(ci.low, 4), round(ci.high, 4)) == (0.2553, 0.3662)
    zero = wilson_interval(0, 10)
    assert zero is not None and zero.low == 0.0 and zero.high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) is None


def test_error_rates_are_read_from_the_humans_side() -> None:
    human = [True, True, True, False, False]
    judge = [True, False, None, True, False]  # one abstention, left out
    f = figures(human, judge)
    assert f.labels == 4
    assert (f.confusion.both_pass, f.confusion.false_fail, f.confusion.false_pass,
            f.confusion.both_fail) == (1, 1, 1, 1)
    assert f.false_fail.rate == 0.5 and f.false_fail.of == 2
    assert f.false_pass.rate == 0.5 and f.accuracy == 0.5
