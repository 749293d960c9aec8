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


REPORTERS: dict[str, str] = {
    "pretty": "mcptest.reporters.pretty",
    "summary": "mcptest.reporters.summary",
    "json": "mcptest.reporters.json_report",
    "junit": "mcptest.reporters.junit",
    "md": "mcptest.reporters.markdown",
    "html": "mcptest.reporters.html",
    "sarif": "mcptest.reporters.sarif",
    "gitlab": "mcptest.reporters.gitlab",
    "ndjson": "mcptest.reporters.ndjson",
    "tap": "mcptest.reporters.tap",
}


def get_reporter(name: str) -> Reporter:
    """The `render` function of the named format."""
    module = importlib.import_module(REPORTERS[name])
    render: Reporter = module.render
    return render
