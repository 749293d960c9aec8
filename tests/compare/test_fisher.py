"""Our Fisher's exact test against scipy's on random 2×2 tables (scipy is a dev dependency)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mcptest.compare.fisher import fisher_greater, worse

counts = st.integers(min_value=0, max_value=30)


@settings(max_examples=400, deadline=None)
@given(counts, counts, counts, counts)
def test_matches_scipy_one_sided(a: int, b: int, c: int, d: int) -> None:
    from scipy.stats import fisher_exact  # at use: not in every worker

    expected = fisher_exact([[a, b], [c, d]], alternative="greater").pvalue
    assert math.isclose(fisher_greater(a, b, c, d), expected, rel_tol=1e-9, abs_tol=1e-12)


def test_the_issue_examples() -> None:
    assert worse(5, 5, 0, 5) == pytest.approx(1 / 252)  # 5/5 → 0/5: a regression at 0.05
    assert worse(4, 5, 3, 5) == pytest.approx(0.5)       # 4/5 → 3/5: insufficient data
    assert worse(1, 1, 0, 1) == 0.5                      # one run each can never be significant


def test_negative_counts_are_refused() -> None:
    with pytest.raises(ValueError):
        fisher_greater(-1, 0, 0, 0)
