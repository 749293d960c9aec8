"""What `mcptest lint` adds to the canonical report (docs/lint.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Location, Model


class LintRuleInfo(Model):
    """A lint or surface rule as SARIF's `rules` shows it (docs/lint.md)."""

    id: str
    name: str
    short: str
    help: str
    level: Literal["error", "warning", "note"]
    help_uri: str


class LintFinding(Model):
    """One thing `mcptest lint` found on a server's surface or wire traffic."""

    rule: str
    level: Literal["error", "warning", "note"]
    message: str
    server: str | None = None
    subject: str | None = None
    """The tool, prompt or resource it concerns, when one."""
    location: Location
    expected: bool = False
    """Listed in the expected-failures file: shown, but does not fail the run."""


class LintSection(Model):
    """What `mcptest lint` found; `findings` exclude suppressed ones (counted in `suppressed`)."""

    findings: list[LintFinding] = Field(default_factory=list)
    rules: list[LintRuleInfo] = Field(default_factory=list)
    suppressed: int = 0
    messages_checked: int = 0
    """JSON-RPC messages the wire-schema rule validated."""
