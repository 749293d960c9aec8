"""The base of every report model: frozen, no unknown keys (docs/reports.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

Confidence = Literal["high", "medium", "low"]


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Location(Model):
    file: str
    """Suite file path as given on the command line (repo-relative in CI)."""
    line: int
    column: int = 1
