"""Nominal alpha for labeled juries (docs/jury.md, "Verdict modes") against the `krippendorff`
package, and the hand-computed one-unit variant."""

from __future__ import annotations

import krippendorff
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcptest.grade.agreement_nominal import (
    labeled_jury_alpha,
    nominal_alpha,
    run_label_agreement,
)

LABELS = ("rude", "neutral", "friendly", "other")
CELL = st.one_of(st.none(), st.sampled_from(LABELS), st.sampled_from(LABELS))


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(st.integers(2, 6).flatmap(lambda raters: st.integers(2, 8).flatmap(
    lambda units: st.lists(st.lists(CELL, min_size=units, max_size=units),
                           min_size=raters, max_size=raters))))
def test_many_units_match_the_package(matrix: list[list[str | None]]) -> None:
    _, raw, units = labeled_jury_alpha(matrix, len(LABELS))
    codes = np.array([[np.nan if v is None else LABELS.index(v) for v in row] for row in matrix],
                     dtype=float)
    pairable = [u for u in range(codes.shape[1]) if np.sum(~np.isnan(codes[:, u])) >= 2]
    if len(pairable) < 2 or len({c for u in pairable for c in codes[:, u] if not np.isnan(c)}) < 2:
        return  # one unit, or nothing to disagree on: our documented edge rules, not the textbook's
    want = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert units == len(pairable)
    assert raw == pytest.approx(want, abs=1e-9)


def test_one_unit_uses_a_uniform_prior_over_the_labels() -> None:
    # three friendly, one rude: 3 of 6 pairs differ; expected 1 − 1/3 with three labels
    assert nominal_alpha([["friendly", "friendly", "friendly", "rude"]], 3) == pytest.approx(
        1 - (3 / 6) / (2 / 3))
    assert labeled_jury_alpha([["a"], ["a"]], 2) == (1.0, 1.0, 1)
    assert labeled_jury_alpha([["a"], [None]], 2) == (None, None, 0)


def test_run_level_takes_one_unit_per_jury() -> None:
    same = run_label_agreement([["a", "a", "a"], ["b", "b"]])
    assert same == 1.0
    split = run_label_agreement([["a", "b"], ["a", "b"]])
    assert split is not None and split < 0
