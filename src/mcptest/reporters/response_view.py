"""A test's response as a person reads it in the PR comment and the job summary: indented JSON,
shown once per test (docs/pr-comment.md, "The response").

A string that itself holds a JSON object or array (a tool answering JSON as text) is shown
parsed, so it reads as indented JSON rather than an escaped blob full of `\\n`; a long string is
cut with a note of what is left out; a long view is cut at a line with a note. The JSON report
holds the response whole. The text returned is plain: the caller escapes it (`md_pre`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

MAX_STRING = 400
"""Characters of one string value before it is cut."""
MAX_LINES = 40
MAX_CHARS = 3000
MAX_DEPTH = 32
"""Nesting shown; deeper values read `…` (the report already bounds the depth it keeps)."""
_PARSE_LIMIT = 200_000


@dataclass(frozen=True)
class ResponseView:
    text: str
    """Indented JSON (plain text, not escaped)."""
    note: str
    """`612 B · 1 string holding JSON shown parsed · 2 long strings cut`: what the view did."""


class _Walk:
    """Rebuilds a JSON value with JSON-holding strings parsed and long strings cut."""

    def __init__(self) -> None:
        self.parsed = 0
        self.cut = 0

    def __call__(self, value: object, depth: int = 0) -> object:
        if depth > MAX_DEPTH:
            return "…"
        if isinstance(value, dict):
            return {str(k): self(v, depth + 1) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v, depth + 1) for v in value]
        if not isinstance(value, str):
            return value
        inner = _json_in(value)
        if inner is not None:
            self.parsed += 1
            return self(inner, depth + 1)
        if len(value) > MAX_STRING:
            self.cut += 1
            return f"{value[:MAX_STRING]}… [{len(value) - MAX_STRING:,} more characters]"
        return value


def _json_in(text: str) -> object | None:
    """The object or array a string holds, else None."""
    stripped = text.strip()
    if len(stripped) > _PARSE_LIMIT or stripped[:1] not in ("{", "[") \
            or stripped[-1:] not in ("}", "]"):
        return None
    try:
        inner = json.loads(stripped)
    except (ValueError, RecursionError):
        return None
    return inner if isinstance(inner, dict | list) else None


def size_text(n: int) -> str:
    """`612 B`, `1.2 kB`, `3.4 MB` (decimal units, as GitHub shows file sizes)."""
    if n < 1000:
        return f"{n} B"
    if n < 1_000_000:
        return f"{n / 1000:.1f} kB"
    return f"{n / 1_000_000:.1f} MB"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def view(response: object) -> ResponseView:
    """The response pretty-printed and bounded, with a note of what was shortened."""
    notes: list[str] = []
    if isinstance(response, dict) and response.get("truncated") is True \
            and isinstance(response.get("head"), str):
        # the report kept only the head of a very large or deep answer (grade/rows.py)
        text, total = response["head"], response.get("chars")
        notes.append(f"{size_text(total) if isinstance(total, int) else 'large'} answer; "
                     "the report kept its start")
    else:
        raw = json.dumps(response, ensure_ascii=False, default=str)
        notes.append(size_text(len(raw.encode("utf-8"))))
        walk = _Walk()
        text = json.dumps(walk(response), ensure_ascii=False, default=str, indent=2)
        if walk.parsed:
            notes.append(_plural(walk.parsed, "string holding JSON", "strings holding JSON")
                         + " shown parsed")
        if walk.cut:
            notes.append(_plural(walk.cut, "long string", "long strings") + " cut")
    lines = text.split("\n")
    kept: list[str] = []
    size = 0
    for line in lines:
        if len(kept) == MAX_LINES or size + len(line) > MAX_CHARS:
            break
        kept.append(line)
        size += len(line) + 1
    more = len(lines) - len(kept)
    if more and not kept:  # one line longer than the view (the head the report kept)
        kept, more = [lines[0][:MAX_CHARS] + "…"], more - 1
        notes.append(f"cut at {MAX_CHARS:,} characters")
    if more:
        notes.append(_plural(more, "more line", "more lines") + " in the JSON report")
    return ResponseView(text="\n".join(kept), note=" · ".join(notes))
