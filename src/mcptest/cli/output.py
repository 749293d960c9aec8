"""Writing reports: redact once, render each requested format, write files or stdout."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from pathlib import Path

from mcptest.report.models import Report
from mcptest.reporters import get_reporter


def render(report: Report, fmt: str, *, to_terminal: bool = False) -> str:
    reporter = get_reporter(fmt)
    if fmt == "pretty":
        color = to_terminal and sys.stdout.isatty() and "NO_COLOR" not in os.environ
        return reporter(report, color=color)  # type: ignore[call-arg]
    return reporter(report)


def write_reports(
    report: Report, outputs: list[tuple[str, Path | None]], *, secrets: Iterable[str] = ()
) -> None:
    """Every reporter sees the redacted report only."""
    from mcptest.report.redact import redact_report

    clean = redact_report(report, secrets)
    for fmt, path in outputs:
        text = render(clean, fmt, to_terminal=path is None)
        if not text.endswith("\n"):
            text += "\n"
        if path is None:
            sys.stdout.write(text)
            sys.stdout.flush()
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
