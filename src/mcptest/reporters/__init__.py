"""Reporters: each is a pure `render(report, options) -> str` in its own module.

They share one signature, `Reporter`: the report and one `RenderOptions` of what the caller
knows that the report does not (a terminal's colour, a comment's size limit); each reporter
reads only the fields it needs and ignores the rest, so the CLI and the Action dispatch every
format the same way. The registry names modules rather than importing them so that a run
imports only the reporters it uses (jinja2 and sarif-om stay unloaded on a plain `pretty` run).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mcptest.report.models import Report


@dataclass(frozen=True)
class RenderOptions:
    """How to render, beyond the report itself; the defaults suit a file."""

    color: bool = False
    """ANSI colour (`pretty`): the CLI sets it for a terminal without `NO_COLOR`."""
    max_chars: int = 60_000
    """The longest text `md` writes: a PR comment holds 65,536 characters (docs/pr-comment.md,
    "Size limit and truncation")."""


DEFAULTS = RenderOptions()


class Reporter(Protocol):
    """A format: the whole report as text, a pure function of the report and the options."""

    def __call__(self, report: Report, options: RenderOptions = ..., /) -> str: ...


@dataclass(frozen=True)
class ReportFormat:
    """One report format: the one table's entry (docs/architecture.md, "Adding a report
    format"); the CLI's `--reporter` choices and the Action's inputs and file names derive
    from it."""

    name: str
    """`--reporter NAME`, and the name the Action's `reporters` input takes."""
    module: str
    """Its module, whose `render` is a `Reporter`; imported on first use."""
    extension: str
    """The Action writes it to `output-dir/mcptest.<extension>`."""
    action: bool = True
    """The Action's `reporters` input takes it (`summary` is for a person at a terminal)."""


FORMATS: tuple[ReportFormat, ...] = (
    ReportFormat("pretty", "mcptest.reporters.pretty", "txt"),
    ReportFormat("summary", "mcptest.reporters.summary", "summary.txt", action=False),
    ReportFormat("json", "mcptest.reporters.json_report", "json"),
    ReportFormat("junit", "mcptest.reporters.junit", "xml"),
    ReportFormat("md", "mcptest.reporters.markdown", "md"),
    ReportFormat("html", "mcptest.reporters.html", "html"),
    ReportFormat("sarif", "mcptest.reporters.sarif", "sarif"),
    ReportFormat("gitlab", "mcptest.reporters.gitlab", "gitlab.json"),
    ReportFormat("ndjson", "mcptest.reporters.ndjson", "ndjson"),
    ReportFormat("tap", "mcptest.reporters.tap", "tap"),
    ReportFormat("conformance", "mcptest.reporters.conformance_json", "checks.json",
                 action=False),  # `mcptest lint`'s conformance checks (docs/conformance.md)
)
"""The table: one entry per format, in the order help texts list them."""

REPORTERS: dict[str, str] = {f.name: f.module for f in FORMATS}
"""Format name → module."""


def get_reporter(name: str) -> Reporter:
    """The `render` function of the named format."""
    module = importlib.import_module(REPORTERS[name])
    render: Reporter = module.render
    return render
