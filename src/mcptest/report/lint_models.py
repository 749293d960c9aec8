"""What `mcptest lint` adds to the canonical report (docs/lint.md)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Location, Model


class LintRuleInfo(Model):
    """A lint or surface rule as SARIF's `rules` shows it (docs/lint.md)."""

    id: str
    """The rule's id, as findings name it (`wire-schema`, `surface/tool-removed`, …)."""
    name: str
    """The id in CamelCase (`WireSchema`): SARIF's `rules[].name`."""
    short: str
    """One line: what the rule flags."""
    help: str
    """What the rule checks and why it matters, in full."""
    level: Literal["error", "warning", "note"]
    """The level its findings get in this run (the suite's profile may change a rule's default)."""
    help_uri: str
    """Where the rule is documented (docs/lint.md or docs/conformance.md, anchored at the rule)."""
    spec: str | None = None
    """For a conformance rule: the spec file and section it checks
    (`2026-07-28/basic/index.mdx#meta`, or an RFC section)."""
    spec_url: str | None = None
    """The published page of `spec`."""


class LintFinding(Model):
    """One thing `mcptest lint` found on a server's surface or wire traffic."""

    rule: str
    """The id of the rule that found it (one of `lint.rules[].id`)."""
    level: Literal["error", "warning", "note"]
    """`error` fails the run unless `expected`; `warning` and `note` never do."""
    message: str
    """What was found, in one line."""
    server: str | None = None
    """The suite's name of the server it was found on; null for a finding about the suite itself."""
    subject: str | None = None
    """The tool, prompt or resource it concerns, when one."""
    location: Location
    """Where to fix it: the suite file (the server's or the entry's line), or the surface
    snapshot's line."""
    expected: bool = False
    """Listed in the expected-failures file: shown, but does not fail the run."""


class ConformanceCheckRun(Model):
    """One conformance rule on one server: whether it ran and what it found."""

    rule: str
    """The rule's id (its info is in `lint.rules`)."""
    server: str
    """The suite's name of the server it ran on."""
    status: Literal["passed", "failed", "skipped"]
    """failed: it has findings in `lint.findings`; skipped: it could not run (see `note`)."""
    note: str | None = None
    """Why the check was skipped."""


class LintSection(Model):
    """What `mcptest lint` found; `findings` exclude suppressed ones (counted in `suppressed`)."""

    findings: list[LintFinding] = Field(default_factory=list)
    """Every finding the ignore list did not remove, in the order found."""
    rules: list[LintRuleInfo] = Field(default_factory=list)
    """Every rule that ran, whether or not it found anything."""
    suppressed: int = 0
    """Findings the suite's `lint.ignore` removed from `findings`."""
    messages_checked: int = 0
    """JSON-RPC messages the wire-schema rule validated."""
    checks: list[ConformanceCheckRun] = Field(default_factory=list)
    """Each conformance check run on each server (`lint.conformance`), passed or not:
    docs/conformance.md."""
