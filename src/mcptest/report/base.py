"""The base of every report model: frozen, no unknown keys (docs/reports.md)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.report.field_docs import describe_properties

Confidence = Literal["high", "medium", "low"]
Count = Annotated[int, Field(ge=0)]
"""How many of something: never negative (a report read back is checked against these)."""
Usd = Annotated[float, Field(ge=0)]
"""Money spent or allowed, in US dollars."""
Millis = Annotated[float, Field(ge=0)]
"""A duration in milliseconds."""
Rate = Annotated[float, Field(ge=0, le=1)]
"""A share or a probability: 0 to 1."""

Status = Literal[
    "passed", "failed", "error", "skipped", "deferred", "not_yet_available", "flaky",
]
"""`deferred`: a judge could not be reached (no key); not measured: it does not fail the run
unless --require-judge (or --fail-on not-measured), and never counts as a pass.
`flaky`: the repetitions of a repeated test disagreed; `repeat.met` says whether its gate
was met (by default the lower end of its pass rate's interval reached `min_pass_rate`;
docs/baseline.md)."""


class Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, json_schema_extra=describe_properties,
                              defer_build=True)


class Location(Model):
    """A place in a file mcptest read: the suite, or a surface snapshot."""

    file: str
    """Suite file path as given on the command line (repo-relative in CI)."""
    line: int = Field(ge=1)
    """1-based line in that file."""
    column: int = Field(default=1, ge=1)
    """1-based column (1 when only the line is known)."""


class Interval(Model):
    """A 95% interval: Wilson's for a rate, a seeded bootstrap for kappa and alpha."""

    low: float
    """Lower end of the interval."""
    high: float
    """Upper end of the interval."""
