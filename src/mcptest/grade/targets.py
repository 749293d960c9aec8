"""Target paths: `result.content[0].text`, `jury.agreement`, `tool_calls[-1].args.city`
(docs/suites.md).

A path is dotted keys with `[n]` indexes (negative counts from the end) and `["key"]` for keys that
contain dots or brackets. Resolving never raises: a missing segment is data that names itself.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from mcptest.errors import SuiteError
from mcptest.suite.messages import did_you_mean
from mcptest.suite.positions import format_path as format_key_path

_SEGMENT = re.compile(
    r"""
      (?P<key>[^.\[\]"]+)                 # bare key
    | \[(?P<index>-?\d+)\]                # [3] or [-1]
    | \[\s*"(?P<quoted>(?:[^"\\]|\\.)*)"\s*\]   # ["a.b"]
    | (?P<dot>\.)
    """,
    re.VERBOSE,
)

Segment = str | int


class TargetSyntaxError(SuiteError, ValueError):
    """The path itself is malformed (a load error, not an assertion failure)."""


@lru_cache(maxsize=4096)
def parse_target(path: str) -> tuple[Segment, ...]:
    """Split a target path into keys (str) and indexes (int)."""
    segments: list[Segment] = []
    pos, expect_key = 0, True
    while pos < len(path):
        m = _SEGMENT.match(path, pos)
        if not m:
            raise TargetSyntaxError(f"bad target path {path!r} at character {pos + 1}")
        if m.group("dot"):
            if expect_key:
                raise TargetSyntaxError(f"bad target path {path!r}: empty segment at {pos + 1}")
            expect_key = True
        elif m.group("key") is not None:
            if not expect_key:
                raise TargetSyntaxError(f"bad target path {path!r}: missing '.' at {pos + 1}")
            segments.append(m.group("key"))
            expect_key = False
        elif m.group("index") is not None:
            segments.append(int(m.group("index")))
            expect_key = False
        else:
            segments.append(json.loads(f'"{m.group("quoted")}"'))
            expect_key = False
        pos = m.end()
    if not segments or expect_key:
        raise TargetSyntaxError(f"bad target path {path!r}")
    return tuple(segments)


_PLAIN_SEGMENT = re.compile(r"[^.\[\]\"]+")


def format_target_path(segments: tuple[Segment, ...] | list[Segment]) -> str:
    """A target path as written (`result.content[0].text`; odd keys as JSON strings)."""
    return format_key_path(segments, _PLAIN_SEGMENT, json.dumps)


@dataclass(frozen=True)
class Resolved:
    value: Any


@dataclass(frozen=True)
class Missing:
    """The first segment that did not resolve, and what stood there instead."""

    message: str
    explained: bool = False
    """The absence has a cause other than the path (an error answer, no jury, no task created):
    not a mistake of the suite's (grade/absent.py)."""


def describe_shape(value: Any) -> str:
    """A short description of a JSON value's shape, for 'what was there instead'."""
    if isinstance(value, dict):
        keys = ", ".join(list(map(str, value))[:8])
        more = ", …" if len(value) > 8 else ""
        return f"an object with keys [{keys}{more}]" if value else "an empty object"
    if isinstance(value, list):
        return f"an array of length {len(value)}"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"a string of {len(value)} chars"
    return type(value).__name__


def resolve(root: dict[str, Any], path: str) -> Resolved | Missing:
    """Walk `path` through `root` (the test's produced data: `result`, `error`, `jury`, …)."""
    segments = parse_target(path)
    current: Any = root
    for i, seg in enumerate(segments):
        here = format_target_path(segments[: i + 1])
        if isinstance(seg, int):
            if not isinstance(current, list):
                return Missing(f"`{here}`: cannot index [{seg}] into {describe_shape(current)}")
            if not -len(current) <= seg < len(current):
                return Missing(f"`{here}`: index {seg} out of range ({describe_shape(current)})")
            current = current[seg]
        else:
            if not isinstance(current, dict):
                return Missing(f"`{here}`: no key `{seg}` in {describe_shape(current)}")
            if seg not in current:
                if i == 0:
                    text = _absent_root(seg, root)
                    return Missing(text, explained=" is absent: " in text)
                return Missing(f"`{here}`: no key `{seg}` in {describe_shape(current)}"
                               f"{did_you_mean(seg, map(str, current))}")
            current = current[seg]
    return Resolved(current)


_CLIENT_SIDE = {
    "task": "the server answered at once; it created no task (docs/suites.md#tasks)",
    "client": "the server asked the client nothing during this test (no elicitation, sampling "
              "or roots request)",
    "notifications": "the server sent no progress or log notification during this test",
}


def _absent_root(seg: str, root: dict[str, Any]) -> str:
    if seg == "result" and "error" in root:
        err = root["error"] or {}
        return (
            f"`result` is absent: the server answered with JSON-RPC error "
            f"{err.get('code')} ({err.get('message')!s})"
        )
    if seg == "error" and "result" in root:
        return "`error` is absent: the server answered with a result, not a JSON-RPC error"
    if seg == "jury":
        return "`jury` is absent: this test has no llm-jury result to read"
    if seg in _CLIENT_SIDE:
        return f"`{seg}` is absent: {_CLIENT_SIDE[seg]}"
    roots = ", ".join(sorted(root)) or "nothing"
    return f"`{seg}` is not available here (available: {roots}){did_you_mean(seg, root)}"
