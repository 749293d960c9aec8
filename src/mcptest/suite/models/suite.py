"""The suite file as a whole, and its `judge:` defaults.

A section's models are imported and built when a file first has that section: `Suite`'s
annotations name them (type checkers import them below), and `Suite.section_type` resolves a
section's through the package's lazy names (`mcptest.suite.models._LAZY`). The loader
validates each section a file has on its own (`mcptest.suite.sections`), so a suite of evals
never builds a server's, a tool test's or a matcher's model. The whole model is built when it
is asked for whole: the published schema, or `Suite.model_validate` (`model_rebuild`).
"""

from __future__ import annotations

import builtins
import functools
import importlib
import re
from typing import TYPE_CHECKING, Annotated, Any, ForwardRef

from pydantic import (
    Field,
    model_validator,
)

from mcptest.suite.durations import Duration
from mcptest.suite.models.base import Strict

# The sections' types, for type checkers; at run time each resolves when a file has its section
# (`Suite.section_type`), not when this module is imported (so TC004 is not wanted here).
if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models.calibration import CalibrationGate  # noqa: TC004
    from mcptest.suite.models.cases import AgentTest, ToolTest  # noqa: TC004
    from mcptest.suite.models.client import ServerClient  # noqa: TC004
    from mcptest.suite.models.defaults import SuiteDefaults  # noqa: TC004
    from mcptest.suite.models.eval_spec import EvalSpec  # noqa: TC004
    from mcptest.suite.models.rubric_criteria import RubricBody  # noqa: TC004
    from mcptest.suite.models.selection_spec import SelectionSpec  # noqa: TC004
    from mcptest.suite.models.servers import Server, Variable  # noqa: TC004
    from mcptest.suite.models.surface import LintSettings, SurfaceCheck  # noqa: TC004
    from mcptest.suite.models.surface_cases import ListTest, PromptTest, ResourceTest  # noqa: TC004


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
        return self._name_selection_servers()

    def _name_selection_servers(self) -> Suite:
        for server, spec in self.selection.items():
            spec._server = server
        return self

    @classmethod
    def section_type(cls, key: str) -> Any:
        """The type of one top-level key with its constraints (`max_score_drop`'s bounds),
        importing only the models it names."""
        return _section_type(key)

    @classmethod
    def from_sections(cls, sections: dict[str, Any]) -> Suite:
        """The suite of sections each validated on its own (`section_type`): the keys given
        are the ones the file has."""
        return cls.model_construct(**sections)._name_selection_servers()

    @classmethod
    def model_rebuild(cls, *, force: bool = False, raise_errors: bool = True,
                      _parent_namespace_depth: int = 2,
                      _types_namespace: Mapping[str, Any] | None = None) -> bool | None:
        """Build the whole model (pydantic calls this on its first whole use), every section's
        types resolved through the package."""
        names = {name: _name(name) for key in cls.model_fields for name in _names_in(key)}
        return super().model_rebuild(
            force=force, raise_errors=raise_errors,
            _parent_namespace_depth=_parent_namespace_depth,
            _types_namespace={**names, **(_types_namespace or {})})


def _name(name: str) -> Any:
    """A name a section's annotation uses, from the package (imported on first use)."""
    return getattr(importlib.import_module("mcptest.suite.models"), name)


def _names_in(key: str) -> list[str]:
    """The names of `Suite`'s annotation of `key` that this module does not define."""
    annotation = Suite.model_fields[key].annotation
    if not isinstance(annotation, ForwardRef):
        return []
    return [n for n in re.findall(r"[A-Za-z_]\w*", annotation.__forward_arg__)
            if n not in globals() and not hasattr(builtins, n)]


@functools.cache
def _section_type(key: str) -> Any:
    info = Suite.model_fields[key]
    annotation: Any = info.annotation
    if isinstance(annotation, ForwardRef):
        names = {name: _name(name) for name in _names_in(key)}
        annotation = eval(annotation.__forward_arg__, globals(), names)
    return Annotated[annotation, *info.metadata] if info.metadata else annotation
