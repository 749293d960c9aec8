"""What every reporter says the same way about a comparison with a baseline: the order of the
classes (what the change broke first), their labels, and money that may be unknown."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.report.models import Comparison

LEADING = (
    ("regressed", "❌", "Regressed"), ("newly_flaky", "🎲", "Newly flaky"),
    ("fixed", "✅", "Fixed"), ("changed", "✏️", "Changed (not comparable)"),
    ("not_measured", "∅", "Not measured (no run produced a verdict)"),
    ("unconfirmed", "❓", "Changed, unconfirmed (one judged run a side)"),
    ("insufficient_data", "❔", "Dropped, not significant (insufficient data)"),
    ("new", "🆕", "New"), ("removed", "➖", "Removed"), ("still_failing", "🔁", "Still failing"),
)


def money(usd: float | None) -> str:
    """A cost as the reader sees it: `unknown` when a side had an unpriced model, never $0."""
    return "unknown" if usd is None else f"${usd:.4f}"


def signed_money(usd: float | None) -> str:
    return "unknown" if usd is None else f"{'+' if usd >= 0 else '−'}${abs(usd):.4f}"


def summary_line(c: Comparison) -> str:
    n = c.counts
    bits = [f"{n.get(key, 0)} {label.split(' (')[0].lower()}" for key, _, label in LEADING[:4]]
    bits += [f"{n[key]} {label.split(' (')[0].lower()}" for key, _, label in LEADING[4:6]
             if n.get(key)]
    cost = (f"cost {money(c.new_cost_usd)} vs {money(c.old_cost_usd)} "
            f"({signed_money(c.cost_delta_usd)})")
    return ", ".join(bits) + f"; {tested_line(c)}; {cost}"


def tested_line(c: Comparison) -> str:
    """How many rows were tested for a regression, and at what false discovery rate."""
    return (f"{c.tested} row(s) tested at q = {c.alpha:g} (Benjamini–Hochberg across rows; "
            "only scored runs count)")


def corrected_lines(c: Comparison) -> list[str]:
    """One line per judge whose pass rate moved: raw, and corrected for its errors."""
    return [f"judge {d.record}: judged pass rate {d.old_raw_rate:.2f} → {d.new_raw_rate:.2f} "
            f"({d.raw_delta:+.2f}); corrected change {d.delta:+.2f} "
            f"[{d.ci95.low:+.2f}, {d.ci95.high:+.2f}]" for d in c.corrected]
