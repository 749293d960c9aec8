"""The Jinja environment of the template reporters (markdown, HTML): one configuration.

Templates come from this package only; report text reaches them as data and is escaped by the
filters each format registers, never rendered as template code (docs/reports.md).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).parent / "templates"


def environment(*, autoescape: bool, **options: Any) -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=autoescape,
        undefined=jinja2.StrictUndefined, trim_blocks=True, lstrip_blocks=True, **options)
