"""The suite file as a whole, and its `judge:` defaults."""

from __future__ import annotations

from typing import Literal

from pydantic import (
    Field,
    model_validator,
)

from mcptest.suite.durations import Duration
from mcptest.suite.models.assertion import Assertion
from mcptest.suite.models.base import Strict
from mcptest.suite.models.calibration import CalibrationGate
from mcptest.suite.models.cases import AgentTest, EvalSpec, ToolTest
from mcptest.suite.models.client import ServerClient
from mcptest.suite.models.rubrics import RubricBody
from mcptest.suite.models.selection_spec import SelectionSpec
from mcptest.suite.models.servers import Server, Variable
from mcptest.suite.models.surface import LintSettings, SurfaceCheck
from mcptest.suite.models.surface_cases import ListTest, PromptTest, ResourceTest


class Pricing(Strict):
    """USD per million tokens, for models litellm has no price for."""

    input: float = Field(ge=0)
    output: float = Field(ge=0)


class JudgeDefaults(Strict):
    model: str | None = None
    base_url: str | None = None
    timeout: Duration = 60.0
    concurrency: int = Field(default=8, ge=1, le=256)
    per_model_concurrency: int | None = Field(default=None, ge=1, le=256)
    max_tokens: int = Field(default=1024, ge=16, le=65536)
    temperature: float = Field(default=0.0, ge=0, le=2)
    structured_output: bool = Field(
        default=True,
        description="Ask for the verdict through the provider's structured-output (or JSON) "
                    "mode; false sends the prompt alone, for endpoints that reject both.")
    pricing: dict[str, Pricing] = Field(default_factory=dict)


class SuiteDefaults(Strict):
    """What every test of the file gets without repeating it (docs/suites.md#defaults)."""

    expect: list[Assertion] = Field(
        default_factory=list,
        description="Checked after each tool, resource, prompt, list and agent test's own expect.")
    kinds: list[Literal["tool", "resource", "prompt", "list", "agent"]] = Field(
        default=["tool", "resource", "prompt", "list", "agent"], min_length=1,
        description="Which kinds of test get them (an agent's `duration_ms` includes its model).")


class Suite(Strict):
    """One suite file."""

    servers: dict[str, Server] = Field(default_factory=dict)
    variables: dict[str, Variable] = Field(default_factory=dict)
    tools: list[ToolTest] = Field(default_factory=list)
    resources: list[ResourceTest] = Field(default_factory=list)
    prompts: list[PromptTest] = Field(default_factory=list)
    lists: list[ListTest] = Field(default_factory=list)
    evals: list[EvalSpec] = Field(default_factory=list)
    rubrics: dict[str, RubricBody] = Field(default_factory=dict)
    agents: list[AgentTest] = Field(default_factory=list)
    judge: JudgeDefaults | None = None
    max_score_drop: float | None = Field(
        default=None, ge=0, le=1,
        description="Against a baseline: the judged-score drop a test may have (docs/baseline.md).")
    surface: SurfaceCheck | None = None
    lint: LintSettings | None = None
    defaults: SuiteDefaults | None = None
    client: ServerClient | None = Field(
        default=None, description="The client's side for every server of the file (a server's "
                                  "own `client:` comes first; docs/suites.md#the-client-side).")
    calibration: CalibrationGate | None = None
    """The gate of every `llm-judge`/`llm-jury` and eval without its own (docs/calibration.md)."""
    selection: dict[str, SelectionSpec] = Field(
        default_factory=dict,
        description="Per server: prompts and the tool each should lead to; each listed model is "
                    "offered the server's live tools and sampled `k` times per prompt "
                    "(docs/selection.md).")

    @model_validator(mode="after")
    def _selection_servers(self) -> Suite:
        for server, spec in self.selection.items():
            spec._server = server
        return self
