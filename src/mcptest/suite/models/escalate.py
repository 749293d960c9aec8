"""`escalate:` on an `llm-judge`: the tiers a verdict escalates to when the judge is not sure
enough (docs/cascade.md, "Trust or escalate").

Every tier grades the question of the judge it escalates from, so a tier takes that judge's
`rubric` and `threshold` and may not give its own; `calibration:` belongs to the cascade as a
whole (its record holds every tier's threshold), a tier does not escalate further, and a jury tier
decides pass or fail by its quorum. The validators below work on the raw tiers and the tier
models without importing them, so the matcher models can attach them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationInfo

TIER_KINDS = ("llm-judge", "llm-jury")
_PLACEHOLDER_RUBRIC = "(the cascade's rubric)"
"""Stands in when the escalating judge's own rubric is invalid: that has its own error."""


def tier_kind(v: Any) -> str | None:
    """The discriminator of a tier: the one key of its mapping, or its model's kind."""
    if isinstance(v, dict):
        keys = [k for k in v if k in TIER_KINDS]
        return keys[0] if len(v) == 1 and keys else None
    if isinstance(v, BaseModel):
        return "llm-judge" if hasattr(v, "llm_judge") else "llm-jury"
    return None


def inherit_question(cls: Any, v: Any, info: ValidationInfo) -> Any:
    """`field_validator("escalate", mode="before")`: each tier gets the judge's rubric and
    threshold; a tier that gives its own is an error (it would grade another question)."""
    if not isinstance(v, list):
        return v
    rubric = info.data.get("rubric", _PLACEHOLDER_RUBRIC)
    threshold = info.data.get("threshold", 0.7)
    out: list[Any] = []
    for k, tier in enumerate(v, start=1):
        kind = tier_kind(tier)
        spec = tier.get(kind) if kind is not None and isinstance(tier, dict) else None
        if not isinstance(spec, dict):
            out.append(tier)
            continue
        if "verdict_kind" in spec:
            raise ValueError(f"tier {k} has a `verdict_kind`: a jury tier decides pass or fail "
                             "by its quorum, and its confidence is its vote margin; leave it out")
        own = [key for key in ("rubric", "threshold") if key in spec]
        if own:
            raise ValueError(f"tier {k} gives its own `{own[0]}`: every tier grades the "
                             "question of the `llm-judge` it escalates from (its `rubric` and "
                             "`threshold`); leave it out")
        out.append({kind: {**spec, "rubric": rubric, "threshold": threshold}})
    return out


def check_tiers(cls: Any, v: list[Any] | None) -> list[Any] | None:
    """`field_validator("escalate")`: what a tier may not carry."""
    for k, tier in enumerate(v or [], start=1):
        spec = getattr(tier, "llm_judge", None) or getattr(tier, "llm_jury", None)
        if getattr(spec, "calibration", None) is not None:
            raise ValueError(f"tier {k} has its own `calibration`: the cascade's record (the "
                             "escalating `llm-judge`'s `calibration:`) holds every tier's "
                             "threshold; leave it out")
        if getattr(spec, "escalate", None):
            raise ValueError(f"tier {k} escalates again: list every tier, cheapest first, in "
                             "this one `escalate`")
    return v
