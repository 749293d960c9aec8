"""The label planner (mcptest.stats.label_planner): its closed forms against brute force, the
`ppi-python` package's `ppi_power`, and the Dorner–Nastl–Hardt limit."""

from __future__ import annotations

import math

import pytest
from support.judge_errors import judge_errors as _errors

from mcptest.stats.label_planner import (
    dorner_capped,
    labels_for_drop,
    ppi_ceiling,
    ppi_effective,
    ppi_labels,
    rogan_gladen_gain,
    rogan_gladen_labels,
)


@pytest.mark.parametrize(("p", "q0", "q1", "n", "target"), [
    (0.84, 0.7, 0.95, 500, 0.07), (0.4, 0.8, 0.8, 2000, 0.04), (0.6, 0.9, 0.7, 3000, 0.08)])
def test_the_planned_labels_reach_the_width_and_one_fewer_does_not(
        p: float, q0: float, q1: float, n: int, target: float) -> None:
    have = _errors(q0, q1, 20, 20)
    plan = rogan_gladen_labels(p, n, have, target)
    assert plan.reachable and plan.total == plan.fails + plan.passes
    assert plan.more == plan.total - 40
    # the planner smooths the rates as the interval does: one more agreement and one more
    # error per class of the labels held
    s0, s1 = (have.judge_fail + 1) / 22, (have.judge_pass + 1) / 22

    def half(m0: int, m1: int) -> float:
        th = (p + s0 - 1) / (s0 + s1 - 1)
        var = (p * (1 - p) / n + (1 - th) ** 2 * s0 * (1 - s0) / m0
               + th * th * s1 * (1 - s1) / m1) / (s0 + s1 - 1) ** 2
        return 1.959963984540054 * math.sqrt(var)

    assert half(plan.fails, plan.passes) <= target
    # no split of one label fewer reaches it: the closed form's allocation is the best
    fewer = plan.total - 1
    assert min(half(m0, fewer - m0) for m0 in range(1, fewer)) > target


def test_a_width_the_judged_rows_alone_exceed_is_unreachable() -> None:
    plan = rogan_gladen_labels(0.5, 50, _errors(0.9, 0.9, 20, 20), 0.05)
    assert not plan.reachable


@pytest.mark.parametrize(("rho", "rows", "n0"), [(0.8, 2000, 400), (0.5, 1000, 300),
                                                 (0.95, 500, 200)])
def test_ppi_labels_as_ppi_python_plans_them(rho: float, rows: int, n0: int) -> None:
    ppi_py = pytest.importorskip("ppi_py")
    # predictions nearly free, a label costs 1, at most `rows` rows: the formula for n of n_max
    ref = ppi_py.ppi_power(rho, cost_X=0.0, cost_Y=1.0, cost_Yhat=1e-3, effective_n=n0,
                           n_max=rows)
    half = 1.959963984540054 * math.sqrt(0.25 / n0)  # the width n0 human labels give at p=½
    plan = ppi_labels(0.25, rho, rows, half)
    assert abs(plan.total - ref["n"]) <= 1
    assert ppi_effective(plan.total, rows - plan.total, rho) >= n0 - 1


def test_the_gain_never_passes_its_ceiling() -> None:
    for rho in (0.3, 0.7, 0.9):
        ceiling = ppi_ceiling(rho)
        gains = [ppi_effective(50, big_n, rho) / 50 for big_n in (10, 100, 10_000, 10**8)]
        assert gains == sorted(gains)
        assert gains[-1] == pytest.approx(ceiling, rel=1e-4)
        assert all(g <= ceiling for g in gains)
    gain, ceiling = rogan_gladen_gain(0.8, 300, _errors(0.85, 0.9, 40, 40))
    assert 0 < gain < ceiling


def test_no_more_than_twice_the_labels_when_the_judge_is_no_better_than_the_system() -> None:
    """Dorner, Nastl & Hardt (ICLR 2025): a judge 85% accurate grading a system that is right
    90% of the time saves at most half the labels, whatever the arithmetic says."""
    assert dorner_capped(3.4, judge_accuracy=0.85, system_accuracy=0.90) == (2.0, True)
    assert dorner_capped(1.5, judge_accuracy=0.85, system_accuracy=0.90) == (1.5, False)
    assert dorner_capped(3.4, judge_accuracy=0.95, system_accuracy=0.90) == (3.4, False)
    assert dorner_capped(3.4, None, 0.9) == (3.4, False)


def test_a_drop_to_detect_asks_a_narrower_interval_for_a_smaller_drop() -> None:
    assert labels_for_drop(0.05) < labels_for_drop(0.10)
    # 80% power, one-sided 5%: se = 0.10/(2.486·√2)
    assert labels_for_drop(0.10) == pytest.approx(1.96 * 0.10 / (2.486 * math.sqrt(2)), rel=1e-3)
