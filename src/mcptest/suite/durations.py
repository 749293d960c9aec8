"""Durations in suite files: a number of seconds, or a string like `500ms`, `30s`, `2m`."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import BeforeValidator, Field, WithJsonSchema

MAX_DURATION_S = 86_400.0
"""One day: any longer and a timeout no longer bounds anything (docs/suites.md, Limits)."""
_UNITS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0}
_PATTERN = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$")


def parse_duration(v: Any) -> Any:
    """Turn `"30s"` into 30.0; leave numbers alone; anything else is for pydantic to reject."""
    if isinstance(v, str):
        m = _PATTERN.match(v)
        if not m:
            raise ValueError(f"not a duration: {v!r} (use seconds, or e.g. 500ms, 30s, 2m)")
        return float(m.group(1)) * _UNITS[m.group(2) or "s"]
    return v


Duration = Annotated[
    float,
    BeforeValidator(parse_duration),
    Field(gt=0, le=MAX_DURATION_S, allow_inf_nan=False),
    # The schema describes what a suite file may say (a number or a string), not the float.
    WithJsonSchema({
        "anyOf": [
            {"type": "number", "exclusiveMinimum": 0, "maximum": MAX_DURATION_S},
            {"type": "string", "pattern": _PATTERN.pattern},
        ],
        "description": "Seconds, or a string like 500ms, 30s, 2m; at most one day.",
    }),
]
