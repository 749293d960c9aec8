"""A matcher's verdict, and the JSON helpers every deterministic matcher shares (docs/suites.md,
Matchers)."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

MAX_SHOWN = 200


@dataclass(frozen=True)
class Verdict:
    passed: bool
    message: str | None = None
    """Why it failed (or, for `not`, why the inner matcher passed)."""
    expected: Any = None
    undecided: bool = False
    """The check could not finish (a regex out of time): a failure that `not` keeps a failure."""


def shorten_json(value: Any, limit: int = MAX_SHOWN) -> str:
    """A value as JSON, cut to `limit` chars with the full length noted."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    shown = json.dumps(text, ensure_ascii=False) if isinstance(value, str) else text
    if len(shown) <= limit:
        return shown
    unit = "chars" if isinstance(value, str) else "chars of JSON"
    return f"{shown[:limit]}… ({len(text):,} {unit})"


def json_equal(a: Any, b: Any) -> bool:
    """Deep JSON equality without coercion: 1 == 1.0, but 1 != "1" and true != 1."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and
                          math.isnan(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b
