"""Tests of a server's resources, prompts and listings (docs/suites.md#resources-prompts-and-lists).

They share the tool tests' `expect` (every matcher, judge and jury) and address what the server
answered through the same targets: `result.contents[0].text`, `result.messages[0].content.text`,
`result.tools[0].name`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from mcptest.suite.durations import Duration
from mcptest.suite.models.assertion import Assertion
from mcptest.suite.models.base import CasePolicy
from mcptest.suite.models.client import PerTestClient
from mcptest.suite.models.table import Cases, cases_field

ListName = Literal["tools", "resources", "templates", "prompts"]
ListMethod = Literal["tools/list", "resources/list", "resources/templates/list", "prompts/list"]
LIST_METHODS: dict[str, ListMethod] = {
    "tools": "tools/list", "resources": "resources/list",
    "templates": "resources/templates/list", "prompts": "prompts/list",
}


class ResourceTest(CasePolicy):
    """Read one resource: a fixed `uri`, or a `template` expanded with `args` (RFC 6570)."""

    name: str = Field(min_length=1)
    server: str = Field(min_length=1)
    uri: str | None = Field(default=None, min_length=1, description="The resource URI to read.")
    template: str | None = Field(
        default=None, min_length=1, description="A URI template, expanded with `args`.")
    args: dict[str, str] = Field(default_factory=dict,
                                 description="Template variables (with `template` only).")
    tags: list[str] = Field(default_factory=list)
    timeout: Duration | None = None
    expect: list[Assertion] = Field(default_factory=list)
    cases: Cases = cases_field()
    client: PerTestClient | None = Field(
        default=None,
        description="The client's side for this test (docs/suites.md#the-client-side).")

    @model_validator(mode="after")
    def _one_source(self) -> ResourceTest:
        if (self.uri is None) == (self.template is None):
            raise ValueError("give exactly one of `uri` and `template`")
        if self.uri is not None and self.args:
            raise ValueError("`args` fill a `template`; a fixed `uri` takes none")
        return self


class PromptTest(CasePolicy):
    """Get one prompt with its arguments."""

    name: str = Field(min_length=1)
    server: str = Field(min_length=1)
    prompt: str = Field(min_length=1, description="The prompt's name.")
    args: dict[str, str] = Field(default_factory=dict, description="Prompt arguments.")
    tags: list[str] = Field(default_factory=list)
    timeout: Duration | None = None
    expect: list[Assertion] = Field(default_factory=list)
    cases: Cases = cases_field()
    client: PerTestClient | None = Field(
        default=None,
        description="The client's side for this test (docs/suites.md#the-client-side).")


class ListTest(CasePolicy):
    """Assert on a whole listing (every page merged): tools, resources, templates or prompts."""

    name: str = Field(min_length=1)
    server: str = Field(min_length=1)
    listing: ListName = Field(
        alias="list", description="Which listing: tools, resources, templates, prompts.")
    tags: list[str] = Field(default_factory=list)
    timeout: Duration | None = None
    expect: list[Assertion] = Field(default_factory=list)
