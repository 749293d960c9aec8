"""The exact binomial tail and the Clopper-Pearson bound equal scipy's (a test dependency only:
the runtime has its own few lines, docs/cascade.md)."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from mcptest.calibrate.binomial import (
    binom_cdf,
    labels_needed,
    least_labels,
    min_labels,
    rejects,
    upper_bound,
)

counts = st.integers(min_value=1, max_value=1000).flatmap(
    lambda n: st.tuples(st.integers(min_value=0, max_value=n), st.just(n)))
rates = st.floats(min_value=1e-4, max_value=0.9999)
deltas = st.floats(min_value=1e-4, max_value=0.5)


@settings(max_examples=300, deadline=None)
@given(counts, rates)
@example(kn=(14, 275), p=0.9375)  # a tail of 2.5e-292, where the two sums part at 1e-8 relative
def test_cdf_equals_scipy(kn: tuple[int, int], p: float) -> None:
    """Equal to 1e-9 relative; tails under 1e-200 (far below any risk a test is run at) only
    need to be that small."""
    from scipy.stats import binom  # at use: not in every worker

    k, n = kn
    assert binom_cdf(k, n, p) == pytest.approx(float(binom.cdf(k, n, p)), rel=1e-9, abs=1e-200)


@settings(max_examples=300, deadline=None)
@given(counts, deltas)
def test_upper_bound_is_the_beta_quantile(kn: tuple[int, int], delta: float) -> None:
    """Clopper-Pearson's one-sided upper bound is Beta(k + 1, n − k)'s 1 − δ quantile."""
    from scipy.stats import beta

    k, n = kn
    expected = 1.0 if k >= n else float(beta.ppf(1 - delta, k + 1, n - k))
    assert upper_bound(k, n, delta) == pytest.approx(expected, abs=1e-9)


@settings(max_examples=300, deadline=None)
@given(counts, st.floats(min_value=0.01, max_value=0.5), deltas)
def test_the_test_is_the_bound_below_alpha(kn: tuple[int, int], alpha: float,
                                           delta: float) -> None:
    from scipy.stats import binom

    k, n = kn
    cdf = float(binom.cdf(k, n, alpha))
    if abs(cdf - delta) < 1e-9:
        return  # on the boundary either reading is right
    assert rejects(k, n, alpha, delta) == (cdf <= delta)
    assert rejects(k, n, alpha, delta) == (upper_bound(k, n, delta) <= alpha + 1e-12)


def test_edges() -> None:
    assert binom_cdf(-1, 5, 0.3) == 0.0 and binom_cdf(5, 5, 0.3) == 1.0
    assert binom_cdf(2, 5, 0.0) == 1.0 and binom_cdf(2, 5, 1.0) == 0.0
    assert upper_bound(0, 0, 0.1) == 1.0  # nothing seen: nothing known
    assert binom_cdf(0, 100_000, 0.5) == 0.0  # underflows to 0, never an error
    with pytest.raises(ValueError):
        binom_cdf(1, 5, 1.5)
    with pytest.raises(ValueError):
        upper_bound(1, 5, 0.0)


@pytest.mark.parametrize(("alpha", "delta", "n"), [
    (0.1, 0.1, 22),        # ln 0.1 / ln 0.9 = 21.85
    (0.1, 0.1 / 3, 33),    # two tiers: δ shared by three bounds
    (0.2, 0.05, 14),
    (0.05, 0.01, 90),
])
def test_min_labels(alpha: float, delta: float, n: int) -> None:
    assert min_labels(alpha, delta) == n
    assert (1 - alpha) ** n <= delta < (1 - alpha) ** (n - 1)
    assert math.isclose(binom_cdf(0, n, alpha), (1 - alpha) ** n)


def test_labels_needed_grows_with_the_error_rate() -> None:
    clean = labels_needed(0.0, 0.1, 0.05)
    some = labels_needed(0.04, 0.1, 0.05)
    more = labels_needed(0.07, 0.1, 0.05)
    assert clean == min_labels(0.1, 0.05)
    assert clean is not None and some is not None and more is not None
    assert clean < some < more
    assert rejects(math.floor(more * 0.07), more, 0.1, 0.05)
    assert labels_needed(0.1, 0.1, 0.05) is None and labels_needed(0.2, 0.1, 0.05) is None


@settings(max_examples=100, deadline=None)
@given(st.integers(min_value=0, max_value=30), st.sampled_from([0.05, 0.1, 0.2]),
       st.sampled_from([0.01, 0.1 / 3, 0.1]), st.integers(min_value=0, max_value=200),
       st.one_of(st.none(), st.integers(min_value=1, max_value=2000)))
def test_least_labels_is_where_the_test_first_passes(errors: int, alpha: float, delta: float,
                                                     above: int, near: int | None) -> None:
    """Whatever the guess: the test rejects on that count and not on one fewer (above `above`),
    by scipy's tail."""
    from scipy.stats import binom

    n = least_labels(errors, alpha, delta, above=above, near=near)
    assert n > above and float(binom.cdf(errors, n, alpha)) <= delta * (1 + 1e-9)
    assert n - 1 <= above or float(binom.cdf(errors, n - 1, alpha)) > delta * (1 - 1e-9)
    assert least_labels(0, alpha, delta) == min_labels(alpha, delta)
