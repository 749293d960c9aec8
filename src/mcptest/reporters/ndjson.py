"""`ndjson`: one JSON object per line, one per test then one summary, for log pipelines.

Each test line is the test's canonical form with `"type": "test"` in front; the last line is
`{"type": "summary", …}` with the run's summary, servers and warnings, so a consumer streaming
the file knows the run is complete when it sees it.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from mcptest.reporters import DEFAULTS, RenderOptions

if TYPE_CHECKING:
    from mcptest.report.models import Report


def _finite(value: Any) -> Any:
    """NaN and infinities become null, as in the `json` format (they are not JSON)."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def _line(obj: dict[str, Any]) -> str:
    # json.dumps escapes control characters, so a value can never break the one-object-a-line
    # framing; U+2028/U+2029 are escaped too for consumers that treat them as line ends.
    text = json.dumps(_finite(obj), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """Test lines in report order, then the summary line; ends with a newline."""
    lines = [_line({"type": "test", **t.model_dump(mode="json")}) for t in report.tests]
    summary: dict[str, Any] = {
        "type": "summary",
        "version": report.version,
        "tool": report.tool.model_dump(mode="json"),
        "started_at": report.started_at,
        "finished_at": report.finished_at,
        "suites": report.suites,
        **report.summary.model_dump(mode="json"),
        "servers": [s.model_dump(mode="json") for s in report.servers],
        "warnings": report.warnings,
    }
    lines.append(_line(summary))
    return "\n".join(lines) + "\n"
