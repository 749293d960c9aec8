"""Why a request is not in its test's cassette, said as a reviewer wants it: the first turn
that differs from the recording, as a unified diff (docs/cassettes.md, "When a replay
diverges").

The request now is set against the recorded request closest to it (same kind, the same model
first, the longest run of equal messages); the first message that differs is shown as indented
JSON, a tool result that is JSON text pretty-printed so the diff is line by line. A request
whose messages all match but whose tools or settings differ shows that difference instead.
"""

from __future__ import annotations

import difflib
import json
import re
from typing import Any

MAX_LINES = 60
"""Diff lines shown at most; the rest is counted."""
MAX_INPUT_LINES = 400
"""Lines of each side handed to difflib, once the shared start and end are cut."""
_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def _common(a: list[Any], b: list[Any]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def closest(now: dict[str, Any], recorded: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The recorded request most like `now`, or None when nothing of its kind was recorded."""
    same = [r for r in recorded if r["kind"] == now["kind"]]
    if not same:
        return None
    return max(same, key=lambda r: (r["model"] == now["model"],
                                    _common(r["messages"], now["messages"]),
                                    r["tools"] == now["tools"], r["params"] == now["params"]))


def _shown(message: Any) -> list[str]:
    if isinstance(message, dict) and isinstance(message.get("content"), str):
        try:
            parsed = json.loads(message["content"])
        except ValueError:
            parsed = None
        if isinstance(parsed, dict | list):
            message = {**message, "content": parsed}
        else:
            message = {**message, "content": message["content"].splitlines() or [""]}
    return json.dumps(message, indent=2, sort_keys=True, ensure_ascii=False,
                      default=str).splitlines()


def _diff(old: list[str], new: list[str]) -> str:
    """A unified diff of at most `MAX_LINES` lines. difflib's work grows with the square of
    what it is given, so the lines both sides share at the start and the end are cut first
    (keeping two of context) and each side is cut to `MAX_INPUT_LINES`: a description changed
    in a 10,000-tool listing diffs the lines around it, not the listing."""
    head = 0
    while head < min(len(old), len(new)) and old[head] == new[head]:
        head += 1
    tail = 0
    while (tail < min(len(old), len(new)) - head
           and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]):
        tail += 1
    start = max(head - 2, 0)
    old = old[start:len(old) - max(tail - 2, 0)][:MAX_INPUT_LINES]
    new = new[start:len(new) - max(tail - 2, 0)][:MAX_INPUT_LINES]
    lines = [_HUNK.sub(lambda m: f"@@ -{int(m[1]) + start}{m[2]} +{int(m[3]) + start}{m[4]} @@",
                       line) if line.startswith("@@") else line
             for line in difflib.unified_diff(old, new, "recorded", "now", n=2, lineterm="")]
    if len(lines) > MAX_LINES:
        lines = [*lines[:MAX_LINES], f"… {len(lines) - MAX_LINES} more diff line(s)"]
    return "\n".join(lines)


def turn(request: dict[str, Any]) -> str:
    """`model turn 2 of gpt-4o` (a conversation's requests are numbered by the answers before
    them), or `judge request to claude-haiku-4-5`."""
    if request["kind"] == "chat":
        answered = sum(1 for m in request["messages"] if m.get("role") == "assistant")
        return f"model turn {answered + 1} of {request['model']}"
    return f"judge request to {request['model']}"


def explain_gap(now: dict[str, Any], recorded: list[dict[str, Any]]) -> str:
    """What differs between `now` and the closest recorded request, with a diff."""
    head = f"{turn(now)} is not in the cassette"
    old = closest(now, recorded)
    if old is None:
        return f"{head}: nothing of its kind was recorded for this test"
    if old["model"] != now["model"]:
        return f"{head}: the recording asked {old['model']}, not {now['model']}"
    i = _common(old["messages"], now["messages"])
    a, b = old["messages"], now["messages"]
    if i < len(a) and i < len(b):
        role = b[i].get("role", "?") if isinstance(b[i], dict) else "?"
        return (f"{head}: message {i + 1} ({role}) differs from the recording\n"
                + _diff(_shown(a[i]), _shown(b[i])))
    if len(a) != len(b):
        more = "continues past" if len(b) > len(a) else "stops short of"
        return (f"{head}: the conversation {more} the recording after message {i}\n"
                + _diff([ln for m in a[i:] for ln in _shown(m)],
                        [ln for m in b[i:] for ln in _shown(m)]))
    if old["tools"] != now["tools"]:
        return (f"{head}: the tools offered differ from the recording\n"
                + _diff(json.dumps(old["tools"], indent=2, sort_keys=True).splitlines(),
                        json.dumps(now["tools"], indent=2, sort_keys=True).splitlines()))
    return (f"{head}: its settings differ from the recording\n"
            + _diff(json.dumps(old["params"], indent=2, sort_keys=True).splitlines(),
                    json.dumps(now["params"], indent=2, sort_keys=True).splitlines()))
