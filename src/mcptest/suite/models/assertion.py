"""An assertion: a target, one matcher of any kind in the table, a message and a weight
(docs/suites.md, "Assertions")."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.models.base import Strict
from mcptest.suite.models.matcher_kinds import Matcher


class Assertion(Strict):
    target: str = Field(min_length=1, description="Path into what the test produced.")
    matcher: Matcher
    message: str | None = None
    weight: float = Field(default=1.0, ge=0, le=1000, description=(
        "Share of this assertion in a weighted test score (`scoring: {mode: weighted}`)."))
