"""What `mcptest calibrate --target-agreement` writes for an escalation cascade: each tier's
threshold with its guarantee, coverage and label count (docs/cascade.md, "Trust or escalate").

It rides in the calibration record as `cascade`, beside the figures of the cascade's own verdict,
so the gate that reads the record (`calibrate/gate.py`) also hands the run its thresholds.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class _Model(BaseModel):
    # built on first use: most runs read no record (docs/architecture.md, "Costs")
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class TierCalibration(_Model):
    """One tier of the cascade, as calibrated on the labels that reached it."""

    tier: int
    """1-based, cheapest first."""
    kind: Literal["llm-judge", "llm-jury"]
    models: list[str]
    last: bool = False
    """The last tier decides whatever reaches it: it has no threshold."""
    threshold: float | None
    """Its verdict stands when its confidence is at least this; None: it is never trusted (no
    threshold kept its agreement at the target) or it is the last tier."""
    labels: int
    """Labels that reached this tier and got a verdict from it: what it was calibrated on."""
    settled: int
    """Of those, the labels it settled (its confidence reached the threshold)."""
    errors: int
    """Of the settled labels, those where its verdict disagreed with the humans'."""
    coverage: float
    """`settled` as a share of every judged label: how much of the work this tier takes."""
    agreement: float | None
    """Measured agreement with the humans on the labels it settled; None when it settled none."""
    guaranteed_agreement: float | None
    """Agreement it is guaranteed to keep on what it settles, with the record's confidence: the
    target for a tier with a threshold; for the last tier, the lower bound of its agreement on
    the labels escalated to it. None when it settles nothing."""
    cost_per_verdict_usd: float | None = None
    """Mean cost of one verdict of this tier over the labels (every tier ran on every label)."""
    note: str | None = None
    """Why it has no threshold, and what would give it one."""
    confidences: list[float] | None = None
    """Its confidence on each label that reached it with a verdict, sorted (4 decimals): what a
    run's shift check compares the run's confidences with (`calibrate/shift.py`); None in a
    record written before it was kept."""
    verdicts: dict[str, Literal["pass", "fail"]] | None = None
    """Its verdict on each label it judged, by label id (every tier ran on every label): what
    `mcptest calibrate --check-drift` compares a fresh judging of this tier with; None in a
    record written before they were kept."""


class CascadeCalibration(_Model):
    """The thresholds of one cascade and the agreement they guarantee."""

    target_agreement: float
    """`--target-agreement`: 1 − α, the agreement each trusted tier must keep."""
    risk: float
    """`--risk`: δ, the chance that the guarantee does not hold (the labels were unlucky)."""
    risk_per_bound: float
    """δ shared evenly over the bounds the guarantee rests on (one per tier, one on the share
    of items reaching the last tier), so that all hold together with probability ≥ 1 − δ."""
    labels: int
    """Labels the cascade gave a verdict on."""
    tiers: list[TierCalibration]
    guaranteed_agreement: float
    """The cascade's agreement with people on items like the labels, guaranteed with
    probability ≥ 1 − risk: at least the target when the last tier keeps it too."""
    agreement: float | None
    """The cascade's measured agreement on the labels, with these thresholds."""
    cost_per_verdict_usd: float | None = None
    """Expected cost of one cascade verdict on items like the labels."""
    last_tier_cost_per_verdict_usd: float | None = None
    """Cost of one verdict of the last tier alone: what the cascade saves against."""
