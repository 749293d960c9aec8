"""`selection:`: does each listed model pick the right tool of a server, from its live
descriptions, for each prompt of a corpus (docs/selection.md)."""

from __future__ import annotations

from typing import Any

from pydantic import Field, PrivateAttr, field_validator

from mcptest.suite.durations import Duration
from mcptest.suite.models.base import Strict
from mcptest.suite.models.trajectory import CallPattern

NO_TOOL = "(no tool)"
"""The vote of a sample that answered without calling a tool."""


class SelectionPrompt(Strict):
    """One request a user might make, and the tool it should lead to."""

    prompt: str = Field(min_length=1, description="What the user asks.")
    tool: str = Field(min_length=1, description="The tool a model should pick for it.")
    args: dict[str, Any] | None = Field(
        default=None,
        description="Arguments the picked call must have (a subset; a value may be a matcher, "
                    "`{regex: \"(?i)oslo\"}`); counted as argument accuracy.")

    @field_validator("args")
    @classmethod
    def _patterns(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        """The same patterns as `tools-called` (docs/agents.md#trajectories)."""
        return None if v is None else CallPattern(name="x", args=v).args

    @property
    def pattern(self) -> CallPattern:
        return CallPattern(name=self.tool, args=self.args)


class SelectionSpec(Strict):
    """The tool-selection test of one server: one report row per model."""

    name: str = Field(
        default="", description="The row's name (default: `tool selection on <server>`).")
    models: list[str] = Field(min_length=1, description="One row per model.")
    prompts: list[SelectionPrompt] = Field(min_length=1)
    k: int = Field(default=5, ge=1, le=50, description="Samples per prompt and model.")
    temperature: float | None = Field(
        default=None, ge=0, le=2,
        description="Sampling temperature (default: the suite's judge.temperature, else 0).")
    system: str | None = Field(default=None, description="A system message before each prompt.")
    min_accuracy: float = Field(
        default=1.0, ge=0, le=1,
        description="Share of the scored prompts whose expected tool must win the vote outright.")
    min_margin: int | None = Field(
        default=None, ge=-50, le=50,
        description="Smallest margin any prompt may have: votes for its expected tool minus "
                    "the runner-up's.")
    timeout: Duration = Field(default=120.0, description="Seconds each model request may take.")
    tags: list[str] = Field(default_factory=list)
    _server: str = PrivateAttr(default="")

    @property
    def server(self) -> str:
        """The server the block is under (`selection: {<server>: …}`)."""
        return self._server

    @property
    def title(self) -> str:
        return self.name or f"tool selection on {self._server}"

    # What every kind of row answers about repeats and scores: a selection row samples `k`
    # times instead of repeating, and has no judged score.
    @property
    def repeat(self) -> None:
        return None

    @property
    def min_pass_rate(self) -> None:
        return None

    @property
    def min_pass_rate_on(self) -> None:
        return None

    @property
    def pass_at_k(self) -> None:
        return None

    @property
    def max_score_drop(self) -> None:
        return None
