"""How a weighted test (docs/cascade.md, "Weighted tiers and a reference") reads in every
reporter: the test's score against its threshold, each assertion's weight and contribution."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.report.models import AssertionResult, TestResult


def _num(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def weighted_text(test: TestResult) -> str:
    """`weighted 0.67 ≥ 0.60` for a test scored `weighted` (docs/cascade.md), else ""."""
    w = test.weighted
    if w is None or w.score is None:
        return ""
    mark = "≥" if w.score + 1e-9 >= w.threshold else "<"
    best = f" (at most {_num(w.best)})" if w.best is not None else ""
    return f"weighted {_num(w.score)}{best} {mark} {_num(w.threshold)}"


def weight_text(a: AssertionResult) -> str:
    """`weight 2, +0.67` for an assertion of a weighted test, else ""."""
    if a.weight is None:
        return ""
    share = "not scored" if a.contribution is None else f"+{_num(a.contribution)}"
    return f"weight {a.weight:g}, {share}"
