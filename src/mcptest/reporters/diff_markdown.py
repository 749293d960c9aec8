"""The difference part of the PR comment and job summary: what this change broke, fixed or made
flaky against the baseline, and what it cost, before anything else (docs/baseline.md). Row names
leave only through the markdown escaping of `reporters/escape.py`; the block is bounded so a run
of thousands of regressions still leaves room for the rest of the comment.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.comparison import LEADING, corrected_lines, signed_money, summary_line
from mcptest.reporters.escape import md_inline
from mcptest.reporters.selection_display import change_lines

if TYPE_CHECKING:
    from mcptest.report.models import Report, RowComparison

MAX_ROWS_PER_CLASS = 20


def _rate(r: RowComparison) -> str:
    if r.change == "not_measured":
        return f"0 of the new run's runs scored (was {_share(r.old_pass_rate, r.old_scored)})"
    if r.old_pass_rate is None or r.new_pass_rate is None:
        return ""
    p = f", p = {r.p_value:.3f}" if r.p_value is not None else ""
    if r.p_adjusted is not None:
        p += f" (adjusted {r.p_adjusted:.3f})"
    need = "" if r.change not in ("unconfirmed", "insufficient_data", "newly_flaky") else (
        f"; repeat {r.repeats_needed}× a side to detect a drop this size"
        if r.repeats_needed is not None else "; more than 100 repeats a side to detect it")
    return (f"{_share(r.old_pass_rate, r.old_scored)} → {_share(r.new_pass_rate, r.new_scored)}"
            f"{p}{need}")


def _share(rate: float | None, scored: int | None) -> str:
    if rate is None:
        return "not measured"
    return f"{rate:.0%}" + (f" of {scored}" if scored is not None and scored > 1 else "")


def _row(r: RowComparison) -> str:
    score = "" if r.score_delta is None else f"{r.score_delta:+.2f}" + (" ⛔" if r.gated else "")
    cost = "" if r.cost_delta_usd is None and r.old_cost_usd is None and r.new_cost_usd is None \
        else signed_money(r.cost_delta_usd)
    status = f"{r.old_status or '—'} → {r.new_status or '—'}"
    return (f"| {md_inline(r.name, 100)} | {status} | {_rate(r)} | {score} | {cost} |")


def diff_block(report: Report) -> str:
    """`### Compared with the baseline`: one table per class that has rows; "" without one."""
    c = report.comparison
    if c is None:
        return ""
    lead = "".join(f"**{md_inline(line, 300)}**\n\n" for line in change_lines(c))
    out = [f"### Compared with the baseline\n\n{lead}{summary_line(c)}\n\n"
           f"Baseline: {md_inline(c.baseline, 200)}"
           + (f" ({md_inline(c.note, 300)})" if c.note else "") + "\n\n"
           + "".join(f"{md_inline(line, 400)}\n\n" for line in corrected_lines(c))]
    gated = [r for r in c.rows if r.gated and r.change != "regressed"]
    for key, mark, label in LEADING:
        rows = [r for r in c.rows if r.change == key]
        if key == "regressed":
            rows += gated
        if not rows:
            continue
        out.append(f"**{mark} {label}: {len(rows)}**\n\n"
                   "| test | status | pass rate | score Δ | cost Δ |\n|---|---|---|---|---|\n")
        out.extend(_row(r) + "\n" for r in rows[:MAX_ROWS_PER_CLASS])
        more = len(rows) - MAX_ROWS_PER_CLASS
        out.append(f"\n… and {more} more in the JSON report.\n\n" if more > 0 else "\n")
    return "".join(out)


FULL_OPEN = "<details><summary>Full results</summary>\n\n"
FULL_CLOSE = "\n</details>\n\n"
