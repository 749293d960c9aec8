"""`not`, `all` and `any`: matchers made of matchers (docs/suites.md, "Matchers").

Their fields hold any matcher kind of the table (`matcher_kinds.py`), each built when a suite
first uses it."""

from __future__ import annotations

from pydantic import Field, field_validator

from mcptest.suite.models.base import Strict
from mcptest.suite.models.matcher_kinds import Matcher, is_llm_matcher


class NotMatcher(Strict):
    not_: Matcher = Field(alias="not")

    @field_validator("not_")
    @classmethod
    def _deterministic_only(cls, v: Matcher) -> Matcher:
        if is_llm_matcher(v):
            raise ValueError("`not` cannot wrap an LLM matcher")
        return v


class AllMatcher(Strict):
    all: list[Matcher] = Field(min_length=1)


class AnyMatcher(Strict):
    any: list[Matcher] = Field(min_length=1)
