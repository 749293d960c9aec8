"""`defaults:`: what every test of the file gets without repeating it (docs/suites.md#defaults)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.suite.models.assertion import Assertion
from mcptest.suite.models.base import Strict


class SuiteDefaults(Strict):
    """What every test of the file gets without repeating it (docs/suites.md#defaults)."""

    expect: list[Assertion] = Field(
        default_factory=list,
        description="Checked after each tool, resource, prompt, list and agent test's own expect.")
    kinds: list[Literal["tool", "resource", "prompt", "list", "agent"]] = Field(
        default=["tool", "resource", "prompt", "list", "agent"], min_length=1,
        description="Which kinds of test get them (an agent's `duration_ms` includes its model).")
