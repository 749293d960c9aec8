"""Jurors that make the same mistakes (docs/calibration.md): the pairwise correlation of their
errors against the human labels, the effective number of independent jurors, and the
warning that they err together, on simulated juries (issue 26, problem 4; issue 35 moved where
it starts: tests/grade/test_juror_independence.py)."""

from __future__ import annotations

import random

import pytest

from mcptest.calibrate.correlation import (
    CORRELATED_ERRORS,
    effective_jurors,
    erring_together,
    error_correlations,
)


def _juror(rng: random.Random, human: list[bool], right: float) -> list[bool | None]:
    return [h if rng.random() < right else not h for h in human]


def _copy(rng: random.Random, human: list[bool], of: list[bool | None], keep: float,
          right: float) -> list[bool | None]:
    """A juror that says what `of` said with probability `keep`, else judges on its own."""
    mine = _juror(rng, human, right)
    return [o if rng.random() < keep else m for o, m in zip(of, mine, strict=True)]


@pytest.mark.parametrize("seed", range(20))
def test_two_jurors_that_err_together_warn_and_independent_ones_do_not(seed: int) -> None:
    """Three jurors, each right about 80% of the time on 100 labels. When juror b copies
    juror a nine times in ten, the pair is flagged and the jury is worth well under three
    jurors; when all three judge on their own, nothing is flagged."""
    rng = random.Random(seed)
    human = [rng.random() < 0.5 for _ in range(100)]
    a = _juror(rng, human, 0.8)
    copied = {"a": a, "b": _copy(rng, human, a, 0.9, 0.8), "c": _juror(rng, human, 0.8)}
    pairs = error_correlations(human, copied)
    worth = effective_jurors(3, pairs)
    warned = erring_together(pairs, worth, 3)
    assert len(warned) == 1 and "jurors a and b err together" in warned[0]
    assert worth is not None and worth < 2.3

    independent = {k: _juror(rng, human, 0.8) for k in "abc"}
    pairs = error_correlations(human, independent)
    assert erring_together(pairs, effective_jurors(3, pairs), 3) == []
    assert all(p.correlation is not None and abs(p.correlation) < CORRELATED_ERRORS
               for p in pairs)


def test_the_arithmetic_on_a_small_table() -> None:
    human = [True, True, True, True, False, False, False, False]
    # a and b wrong on the first two labels; c wrong on the last one
    a = [False, False, True, True, False, False, False, False]
    b = list(a)
    c = [True, True, True, True, False, False, False, True]
    pairs = {p.jurors: p for p in error_correlations(human, {"a": a, "b": b, "c": c})}
    assert pairs[("a", "b")].correlation == 1.0 and pairs[("a", "b")].both_wrong == 2
    # phi of errors (1,1,0,0,0,0,0,0) and (0,0,0,0,0,0,0,1): (8·0 − 2·1)/√(2·6·1·7)
    assert pairs[("a", "c")].correlation == pytest.approx(-2 / (84 ** 0.5), abs=1e-6)
    # ρ̄ over (1, 0, 0) after clipping negatives: 1/3; 3 / (1 + 2/3) = 1.8
    assert effective_jurors(3, list(pairs.values())) == pytest.approx(1.8)


def test_a_juror_that_never_errs_has_no_correlation_and_abstentions_are_left_out() -> None:
    human = [True, False, True, False]
    pairs = error_correlations(human, {"perfect": list(human),
                                       "sloppy": [False, None, True, True]})
    assert pairs[0].correlation is None and pairs[0].labels == 3
    assert effective_jurors(2, pairs) is None
