"""An escalation cascade's calibration as markdown: each tier's threshold, coverage and
guarantee, the cascade's guarantee and what it costs against the last tier alone."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.calibrate.cascade_record import CascadeCalibration, TierCalibration

Escape = Callable[[object, int], str]


def _usd(value: float | None) -> str:
    return "n/a" if value is None else f"${value:.6f}"


def _share(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def _row(t: TierCalibration, esc: Escape) -> str:
    models = ", ".join(f"`{esc(m, 80)}`" for m in t.models)
    threshold = ("decides the rest" if t.last else "none: never trusted" if t.threshold is None
                 else f"confidence ≥ {t.threshold:.3f}")
    agreement = "n/a" if t.agreement is None else (
        f"{t.agreement:.1%} ({t.settled - t.errors}/{t.settled})")
    guaranteed = "n/a" if t.guaranteed_agreement is None else f"≥ {t.guaranteed_agreement:.1%}"
    return (f"| {t.tier}{' (last)' if t.last else ''} | {t.kind} {models} | {threshold} | "
            f"{t.labels} | {t.settled} | {_share(t.coverage)} | {agreement} | {guaranteed} | "
            f"{_usd(t.cost_per_verdict_usd)} |")


def render_cascade(c: CascadeCalibration, esc: Escape) -> list[str]:
    lines = [
        f"## Escalation cascade (target agreement {c.target_agreement:.0%}, risk {c.risk:g})",
        "",
        "| tier | judges | its verdict stands when | labels reaching it | settled | coverage "
        "| agreement | guaranteed | cost / verdict |",
        "|---|---|---|---|---|---|---|---|---|",
        *(_row(t, esc) for t in c.tiers),
        "",
        f"With probability at least {1 - c.risk:.0%}, the cascade agrees with people on at "
        f"least {c.guaranteed_agreement:.1%} of answers like these labels"
        + (f"; on the labels themselves it agreed on {c.agreement:.1%}." if c.agreement
           is not None else "."),
    ]
    if c.guaranteed_agreement < c.target_agreement - 1e-12:
        lines += ["", f"⚠ below the {c.target_agreement:.0%} target: the last tier's agreement on "
                      "what reaches it is not known well enough (too few labels reach it) or is "
                      "too low; add labels the cheaper tiers are unsure of, or a stronger last "
                      "tier"]
    cost, last = c.cost_per_verdict_usd, c.last_tier_cost_per_verdict_usd
    if cost is not None and last:
        lines += ["", f"Cost per verdict: {_usd(cost)} against {_usd(last)} for the last tier "
                      f"alone ({1 - cost / last:.0%} less)."]
    lines += [f"- tier {t.tier}: {esc(t.note, 400)}" for t in c.tiers if t.note]
    return [*lines, ""]
