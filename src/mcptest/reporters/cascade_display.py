"""What the human formats say about escalation cascades (docs/cascade.md, "In reports"): the run's
line (who settled how much, the cost against the last tier on everything, the guarantee), the
headline's savings, and one assertion's path through its tiers. Decided once, so the terminal,
the PR comment and the HTML report agree."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.display import cost

if TYPE_CHECKING:
    from mcptest.report.models import JudgeDetail, Report


def savings(report: Report) -> str | None:
    """`cascade saved 78%`: for the headline, when the run has something to compare with."""
    c = report.summary.cascade
    if c is None or not c.last_tier_cost_usd or c.saved_usd is None or c.saved_usd <= 0:
        return None
    return f"cascade saved {c.saved_usd / c.last_tier_cost_usd:.0%}"


def run_line(report: Report) -> str | None:
    c = report.summary.cascade
    if c is None:
        return None
    tiers = ", ".join(f"tier {k} {n}" for k, n in enumerate(c.settled, start=1))
    parts = [f"cascade: {c.verdicts} verdict(s) settled ({tiers})"]
    if c.last_tier_cost_usd is not None and c.saved_usd is not None:
        share = f", {abs(c.saved_usd) / c.last_tier_cost_usd:.0%}" if c.last_tier_cost_usd else ""
        change = (f"saved {cost(c.saved_usd)}{share}" if c.saved_usd >= 0
                  else f"{cost(-c.saved_usd)}{share} more: the cheaper tiers settled too little")
        parts.append(f"{cost(c.cost_usd)} against {cost(c.last_tier_cost_usd)} with the last "
                     f"tier on every one ({change})")
    else:
        parts.append(f"{cost(c.cost_usd)}")
    if c.guaranteed_agreement is not None:
        parts.append(f"guaranteed agreement ≥ {c.guaranteed_agreement:.1%}")
    if c.uncalibrated:
        parts.append(f"{c.uncalibrated} uncalibrated: their last tier decided (advisory)")
    return "; ".join(parts)


def tier_cell(judge: JudgeDetail | None) -> str:
    """`tier 1/2` for the judges column; empty without a cascade."""
    e = judge.escalation if judge is not None else None
    if e is None or e.decided_by is None:
        return ""
    return f"tier {e.decided_by}/{len(e.tiers)}"


def tier_lines(judge: JudgeDetail | None) -> list[str]:
    """One line per tier: its judges, what it said and why its verdict stood or escalated.
    Model names and reasons are untrusted: each format escapes them."""
    e = judge.escalation if judge is not None else None
    if e is None:
        return []
    out = []
    for t in e.tiers:
        said = f"{t.verdict}" if t.verdict else "no verdict" if t.ran else "not run"
        if t.score is not None:
            said += f", score {t.score:.2f}"
        mark = "▶ " if t.decided else ""
        out.append(f"{mark}tier {t.tier} {t.kind} {', '.join(t.models)}: {said}; {t.reason}"
                   + (f" · {cost(t.cost_usd)}" if t.cost_usd else ""))
    return out
