"""Reading a saved canonical report back (`mcptest report run.json --format X`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from mcptest.errors import ReportError
from mcptest.report.models import REPORT_VERSION, Report

_MAX_LISTED_ERRORS = 5


def read_report(path: str | Path) -> Report:
    """Load and validate a report written by the `json` reporter; `ReportError` says why not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise ReportError(f"cannot read report {path}: {exc.strerror or exc}") from exc
    except UnicodeDecodeError as exc:
        raise ReportError(f"report {path} is not UTF-8 text: {exc.reason}") from exc
    return parse_report(text, str(path))


def parse_report(text: str, source: str = "<report>") -> Report:
    """Validate report JSON text; `source` names it in error messages."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ReportError(
            f"{source}:{exc.lineno}:{exc.colno}: not valid JSON: {exc.msg}"
        ) from exc
    if not isinstance(data, dict):
        raise ReportError(f"{source}: not an mcptest report (expected a JSON object)")
    if "version" not in data:
        raise ReportError(f"{source}: not an mcptest report (no 'version' field)")
    version = data["version"]
    if version != REPORT_VERSION:
        raise ReportError(
            f"{source}: report version {version!r} is not supported "
            f"(this mcptest reads version {REPORT_VERSION})"
        )
    try:
        return Report.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{'.'.join(str(p) for p in err['loc']) or '<root>'}: {err['msg']}"
            for err in exc.errors()[:_MAX_LISTED_ERRORS]
        ]
        more = exc.error_count() - len(problems)
        tail = f" (and {more} more)" if more > 0 else ""
        raise ReportError(
            f"{source}: invalid mcptest report: {'; '.join(problems)}{tail}"
        ) from exc
