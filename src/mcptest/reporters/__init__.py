"""Reporters: each is a pure `render(report: Report) -> str` in its own module.

The registry names modules rather than importing them so that a run imports only the
reporters it uses (jinja2 and sarif-om stay unloaded on a plain `pretty` run).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from mcptest.report.models import Report


class Reporter(Protocol):
    def __call__(self, report: Report) -> str: ...


REPORTERS: dict[str, str] = {
    "pretty": "mcptest.reporters.pretty",
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
