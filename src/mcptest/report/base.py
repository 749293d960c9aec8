"""The base of every report model: frozen, no unknown keys (docs/reports.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

Confidence = Literal["high", "medium", "low"]
Count = Annotated[int, Field(ge=0)]
"""How many of something: never negative (a report read back is checked against these)."""
Usd = Annotated[float, Field(ge=0)]
"""Money spent or allowed, in US dollars."""
Millis = Annotated[float, Field(ge=0)]
"""A duration in milliseconds."""
Rate = Annotated[float, Field(ge=0, le=1)]
"""A share or a probability: 0 to 1."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Location(Model):
    file: str
    """Suite file path as given on the command line (repo-relative in CI)."""
    line: int = Field(ge=1)
    column: int = Field(default=1, ge=1)


class Interval(Model):
    """A 95% interval: Wilson's for a rate, a seeded bootstrap for kappa and alpha."""

    low: float
    high: float
