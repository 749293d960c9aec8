"""One `--max-cost` for a whole sharded run: each shard's slice of it (docs/scale.md).

A matrix of n shards, each with the whole cap, may spend n times what the user wrote. With
`--shard i/n` the cap is the run's: every shard computes, from the same plan, each shard's
projected worst-case cost (its tests' judge and agent calls at their price and `max_tokens`,
times their repetitions, plus the declared `max_cost_usd` of their custom judges) and takes the
slice in proportion to its own. Slices are whole nano-dollars dealt by largest remainder (ties
to the lower shard), so they sum exactly to the cap and every machine computes the same ones.
When no shard projects any cost the cap is dealt evenly. Each shard's ledger then holds its
slice (`llm/budget.py`); `mcptest merge` adds the spend and reports it against the run's cap.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from mcptest.judging.plan_projection import project_calls, test_calls
from mcptest.suite.models import CustomJudgeMatcher

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from mcptest.plan import Plan, PlannedTest

NANO_USD = 10**9
"""Slices are whole nano-dollars: exact integers that sum to the cap."""


def slice_units(cap_units: int, weights: Sequence[float]) -> list[int]:
    """`cap_units` dealt in proportion to `weights` by largest remainder (ties to the lower
    index); evenly when every weight is 0. The result sums exactly to `cap_units`."""
    n = len(weights)
    if n == 0:
        return []
    shares = [Fraction(max(w, 0.0)) for w in weights]
    total = sum(shares, Fraction(0))
    if total == 0:
        shares, total = [Fraction(1)] * n, Fraction(n)
    exact = [cap_units * s / total for s in shares]
    units = [int(e) for e in exact]  # floor: every share is ≥ 0
    left = cap_units - sum(units)
    order = sorted(range(n), key=lambda k: (-(exact[k] - units[k]), k))
    for k in order[:left]:
        units[k] += 1
    return units


def test_worst_case(t: PlannedTest, env: Mapping[str, str], times: int = 1) -> float:
    """The most one planned test may cost (USD): its model calls projected at their price
    (an unpriced one counts 0: under a cap the run refuses it before anything starts) and its
    custom judges' declared worst case, each `times` over."""
    projection, _ = project_calls(test_calls(t), env)
    custom = sum(p.assertion.matcher.custom_judge.max_cost_usd or 0.0 for p in t.assertions
                 if isinstance(p.assertion.matcher, CustomJudgeMatcher))
    return times * ((projection.cost_bound_usd or 0.0) + custom)


def shard_slices(plan: Plan, cap: float, env: Mapping[str, str],
                 times: Callable[[PlannedTest], int]) -> list[float]:
    """Every shard's slice of `cap` (USD, shard 1 first); `plan` is one shard's plan."""
    assert plan.shard is not None
    n = plan.shard[1]
    weights = [0.0] * n
    for t, owner in zip(plan.whole, plan.owners, strict=True):
        weights[owner] += test_worst_case(t, env, times(t))
    units = slice_units(round(cap * NANO_USD), weights)
    return [u / NANO_USD for u in units]
