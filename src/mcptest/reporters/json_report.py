"""`json`: the canonical report itself, the format `mcptest report` and `mcptest merge` read."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters import DEFAULTS, RenderOptions

if TYPE_CHECKING:
    from mcptest.report.models import Report


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The report as indented JSON; field order follows the model, so output is stable."""
    return report.model_dump_json(indent=2) + "\n"
