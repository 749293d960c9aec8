"""`tools-called` (an agent's sequence of tool calls) and `similar` (text close to a reference)
matchers (docs/agents.md#trajectories, docs/suites.md#similar)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import ConfigDict, Field, field_validator, model_validator

from mcptest.suite.models.base import Strict
from mcptest.suite.models.kind_aliases import kind_alias_schema


def _is_matcher(value: Any) -> bool:
    """A one-key mapping whose key is a kind of value matcher (the table's `of_values`)."""
    from mcptest.suite.models.matcher_kinds import VALUE_MATCHER_KINDS, canonical_kind

    return (isinstance(value, dict) and len(value) == 1
            and canonical_kind(str(next(iter(value)))) in VALUE_MATCHER_KINDS)


class CallPattern(Strict):
    """One expected call: the tool's name and, optionally, a subset of its arguments. An
    argument's value is compared as JSON, or checked by a matcher (`{regex: "(?i)oslo"}`)."""

    name: str = Field(min_length=1)
    args: dict[str, Any] | None = Field(
        default=None, description="Arguments the call must have; a value may be a matcher.")

    @field_validator("args")
    @classmethod
    def _matchers(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is None:
            return v
        from mcptest.suite.models.matcher_kinds import matcher_adapter

        adapter = matcher_adapter()
        return {k: adapter.validate_python(x) if _is_matcher(x) else x for k, x in v.items()}


class CountBound(Strict):
    min: int | None = Field(default=None, ge=0)
    max: int | None = Field(default=None, ge=0)


class CallCount(CountBound):
    """`min`/`max` bound the total number of calls; `per_tool` bounds each named tool's."""

    per_tool: dict[str, CountBound] = Field(default_factory=dict)


Patterns = list[CallPattern | str]


class ToolsCalledSpec(Strict):
    """Every given check must hold; at least one is required."""

    contains: Patterns | None = Field(
        default=None, description="Each pattern matches some call, in any order.")
    exact: Patterns | None = Field(
        default=None, description="The calls, one for one, in this order and no others.")
    in_order: Patterns | None = Field(
        default=None, description="The patterns match calls in this order (others may be between).")
    not_contains: Patterns | None = Field(
        default=None, description="No call matches any of these.")
    count: CallCount | None = None

    @model_validator(mode="after")
    def _one_check(self) -> ToolsCalledSpec:
        if all(getattr(self, k) is None for k in
               ("contains", "exact", "in_order", "not_contains", "count")):
            raise ValueError("give at least one of contains, exact, in_order, not_contains, count")
        return self


class ToolsCalledMatcher(Strict):
    model_config = ConfigDict(json_schema_extra=kind_alias_schema("tools-called", "tools_called"))

    tools_called: ToolsCalledSpec = Field(alias="tools-called")  # `tools_called` loads by name


class SimilarSpec(Strict):
    to: str = Field(description="The reference text.")
    threshold: float = Field(default=0.8, ge=0, le=1,
                             description="Pass when the similarity (0..1) is at least this.")
    method: Literal["ratio", "token_set_ratio", "token_sort_ratio", "partial_ratio"] = Field(
        default="token_set_ratio",
        description="rapidfuzz scorer: `ratio` is normalised edit distance; `token_set_ratio` "
                    "ignores word order and repeated words.")
    case_sensitive: bool = False


class SimilarMatcher(Strict):
    similar: SimilarSpec
