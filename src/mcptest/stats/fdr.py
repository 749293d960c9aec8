"""The Benjamini–Hochberg step-up procedure: which of m p-values to call discoveries so that the
expected share of false ones among them stays at or below q (Benjamini & Hochberg 1995, JRSS B
57:289–300). Valid for independent or positively dependent tests, as the rows of a run are
(docs/baseline.md, "When is it a regression").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence


def benjamini_hochberg(p_values: Sequence[float], q: float) -> list[bool]:
    """For each p-value, whether it is a discovery at false discovery rate `q`: the largest k
    with p_(k) ≤ k·q/m, and every p-value at or below p_(k)."""
    m = len(p_values)
    if m == 0:
        return []
    order = sorted(range(m), key=lambda i: p_values[i])
    cut = 0
    for rank, i in enumerate(order, start=1):
        if p_values[i] <= rank * q / m:
            cut = rank
    keep = set(order[:cut])
    return [i in keep for i in range(m)]


def adjusted(p_values: Sequence[float]) -> list[float]:
    """BH-adjusted p-values (the smallest q at which each is a discovery), as
    `scipy.stats.false_discovery_control` and R's `p.adjust(method = "BH")` give them."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i], reverse=True)
    out = [0.0] * m
    running = 1.0
    for k, i in enumerate(order):
        rank = m - k
        running = min(running, p_values[i] * m / rank)
        out[i] = min(1.0, running)
    return out
