"""`scoring:` and the `same-shape` matcher: how a test's assertions combine into one verdict, and
a matcher comparing with its `reference:` (docs/cascade.md, "Weighted tiers and a reference")."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, PrivateAttr

from mcptest.suite.models.base import Strict


class Scoring(Strict):
    """`gate` (the default): every assertion must pass. `weighted`: the weighted mean of the
    assertions' scores (a check 1 or 0, a judge its score) must reach `threshold`."""

    mode: Literal["gate", "weighted"] = "gate"
    threshold: float = Field(default=0.7, ge=0, le=1,
                             description="Pass line of the weighted score (`weighted` only).")


class SameShapeSpec(Strict):
    """Compare the JSON structure of the target with `like:` or else the test's `reference`."""

    like: Any = Field(default=None, description=(
        "The value whose shape the target must have; omit it to use the test's `reference`."))
    extra_keys: Literal["allow", "forbid"] = Field(
        default="forbid", description="Whether the target may have keys the reference lacks.")
    _resolved: Any = PrivateAttr(default=None)
    """The value compared with: `like`, or the test's reference (filled at load)."""

    @property
    def expected(self) -> Any:
        return self.like if "like" in self.model_fields_set else self._resolved


class SameShapeMatcher(Strict):
    same_shape: SameShapeSpec = Field(alias="same-shape")
