"""The base of every input model, and validators shared across them."""

from __future__ import annotations

import re
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
)


class Strict(BaseModel):
    """Base of every input model: unknown keys are an error, and so are `.inf` and `.nan`
    (an infinite weight, price or bound would switch off what it is meant to bound)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False)


class CasePolicy(Strict):
    """`repeat:`, `min_pass_rate:` and `max_score_drop:`, shared by every kind of test
    (docs/baseline.md)."""

    repeat: int | None = Field(
        default=None, ge=1, le=100,
        description="Run this test N times (overrides --repeat); each a fresh call and judging.")
    min_pass_rate: float | None = Field(
        default=None, ge=0, le=1,
        description="Share of repetitions that must pass (default 1.0, or --min-pass-rate).")
    max_score_drop: float | None = Field(
        default=None, ge=0, le=1,
        description="Against a baseline: fail when the judged score fell by more than this.")


def check_regex(cls: Any, value: str | None) -> str | None:
    """Field validator: a pattern that does not compile is a load error (None: not given)."""
    if value is None:
        return None
    try:
        re.compile(value)
    except re.error as e:
        raise ValueError(f"regex does not compile: {e}") from None
    return value


class EnvRef(Strict):
    """A value read from the environment at run time: `{env: NAME}`."""

    env: str = Field(min_length=1, description="Name of the environment variable.")
