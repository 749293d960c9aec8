"""Tool tests and agent tests (docs/suites.md); an eval is `eval_spec.py`'s."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from mcptest.suite.durations import Duration
from mcptest.suite.models.assertion import Assertion
from mcptest.suite.models.base import CasePolicy, reference_field
from mcptest.suite.models.client import PerTestClient, TaskSpec
from mcptest.suite.models.scoring import Scoring
from mcptest.suite.models.table import Cases, cases_field


class ToolTest(CasePolicy):
    name: str = Field(min_length=1)
    server: str = Field(min_length=1)
    tool: str = Field(min_length=1)
    args: dict[str, Any] = Field(default_factory=dict)
    tags: list[str] = Field(default_factory=list)
    timeout: Duration | None = None
    expect: list[Assertion] = Field(default_factory=list)
    reference: Any = reference_field()
    scoring: Scoring | None = None
    cases: Cases = cases_field()
    client: PerTestClient | None = Field(
        default=None, description="The client's side for this test: answers, progress, "
                                  "requestState (docs/suites.md#the-client-side).")
    task: TaskSpec | None = Field(
        default=None, description="When the server answers with a task (tasks extension): "
                                  "cancel it (docs/suites.md#tasks).")


class AgentTest(CasePolicy):
    name: str = Field(min_length=1)
    models: list[str] = Field(min_length=1)
    servers: list[str] = Field(min_length=1)
    prompt: str = Field(min_length=1)
    system: str | None = None
    max_turns: int = Field(default=8, ge=1, le=100)
    timeout: Duration | None = None
    tags: list[str] = Field(default_factory=list)
    expect: list[Assertion] = Field(default_factory=list)
    reference: Any = reference_field()
    scoring: Scoring | None = None
    cases: Cases = cases_field()
