"""How selection rows read in the console and the PR comment (docs/selection.md): accuracy with
its Wilson interval, ties, the winning margin, argument accuracy and tokens; against a baseline,
the line the comparison leads with: `selection 25/31 → 31/31, margin 1 → 4, cost +12%`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.comparison import signed_money
from mcptest.reporters.escape import md_inline

if TYPE_CHECKING:
    from mcptest.report.models import Comparison, Report, SelectionChange, SelectionStats

#: Rows in the comment's table; the JSON report holds the rest.
MAX_ROWS = 20


def _ci(s: SelectionStats) -> str:
    ci = s.accuracy_ci95
    return "" if ci is None else f" [{ci.low:.2f}, {ci.high:.2f}]"


def selection_text(s: SelectionStats) -> str:
    """`selection 3/4 · accuracy 0.75 [0.30, 0.95] · ties 1 · margin 0 · arguments 3/4 · k 5 ·
    2,000 tokens`."""
    if not s.scored:
        return f"selection not measured: 0 of {s.prompts} prompts scored"
    parts = [f"selection {s.won}/{s.scored}" + (
        f" scored of {s.prompts} prompts" if s.scored < s.prompts else ""),
        f"accuracy {s.accuracy or 0:.2f}{_ci(s)}", f"ties {s.ties}", f"margin {s.margin}"]
    if s.args_checked:
        parts.append(f"arguments {s.args_matched}/{s.args_checked}")
    parts += [f"k {s.k}", f"{s.prompt_tokens + s.completion_tokens:,} tokens"]
    return " · ".join(parts)


def _cost(c: SelectionChange) -> str:
    old, new = c.old_cost_usd, c.new_cost_usd
    if old is None or new is None:
        return "cost unknown"
    if old > 0:
        return f"cost {(new - old) / old:+.0%}"
    return f"cost {signed_money(new - old)}"


def change_text(c: SelectionChange) -> str:
    """`selection 25/31 → 31/31, margin 1 → 4, cost +12%`."""
    return (f"selection {c.old_won}/{c.old_scored} → {c.new_won}/{c.new_scored}, "
            f"margin {c.old_margin} → {c.new_margin}, {_cost(c)}")


def change_lines(comparison: Comparison) -> list[str]:
    """One line per selection row compared, its name first when there are several."""
    rows = comparison.selection
    if len(rows) == 1:
        return [change_text(rows[0])]
    return [f"{c.name}: {change_text(c)}" for c in rows]


def selection_block(report: Report) -> str:
    """`### Tool selection`: one table row per selection row, or "" when there is none."""
    shown = [(t.name, t.cost_usd, t.selection) for t in report.tests if t.selection]
    if not shown:
        return ""
    rows = ["### Tool selection", "",
            "| test | prompts won | accuracy [95% CI] | ties | margin | arguments | tokens | "
            "cost |", "|---|---|---|---|---|---|---|---|"]
    for name, cost, s in shown[:MAX_ROWS]:
        accuracy = "not measured" if s.accuracy is None else f"{s.accuracy:.2f}{_ci(s)}"
        args = f"{s.args_matched}/{s.args_checked}" if s.args_checked else ""
        rows.append(f"| {md_inline(name, 120)} | {s.won}/{s.scored} | {accuracy} | {s.ties} | "
                    f"{s.margin} | {args} | {s.prompt_tokens + s.completion_tokens:,} | "
                    f"${cost:.4f} |")
    if len(shown) > MAX_ROWS:
        rows.append(f"\n… and {len(shown) - MAX_ROWS} more in the JSON report.")
    return "\n".join(rows) + "\n\n"
