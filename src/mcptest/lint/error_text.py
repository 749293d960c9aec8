"""Error text answered as a success: a tool result without `isError: true` whose text reads as an
error ("Error: no such table", "Catalog Error: …", a Python traceback).

Servers that catch their own exceptions and return the message as ordinary text (sqlite- and
duckdb-style query servers do) tell the model the call worked. The spec puts tool execution
errors in results with `isError: true` (docs/lint.md#error-text). One pattern serves the lint
rule and the check `mcptest init` writes into every generated tool test, so they agree.

The pattern is anchored at the start of a text block, so a search tool that finds the word
"error" in a log line does not trip it; only the answer's own opening does. A JSON error object
(`{"error": "…"}` as the text or as `structuredContent`, the way FastMCP servers return a caught
failure) counts too, when its top-level `error` member says something.
"""

from __future__ import annotations

import json
import re
from typing import Any

START = (
    r"\W{0,3}(?:"
    r"(?i:error)\]?(?:\s+(?:\w+ing|in|while|during|when|on|from|for)\b(?:\s+[\w'.-]+){0,3}?)?"
    r"\s*[:!]"  # Error: / Error running x: / [ERROR]:
    r"|(?i:exception|fatal(?: error)?)\]?\s*[:!]"
    r"|(?i:error|exception)\s+-\s"  # ERROR - message
    r"|[\w.]*[a-z](?:Error|Exception)\b:"  # OperationalError:, duckdb.CatalogException:
    r"|(?i:catalog|binder|parser|conversion|constraint|syntax|runtime|database|query|sql|"
    r"permission|internal|validation|execution|connection|invalid input|out of range)"
    r"\s+(?i:error|exception)\b"  # Catalog Error: (duckdb), Database error: (sqlite servers)
    r"|(?i:failed to|unable to)\s"  # Failed to execute query
    r"|MCP error -?\d+"  # the TypeScript SDK's rendering of an error
    r")"
)
TRACEBACK = r"Traceback \(most recent call last\)"
_START = re.compile(START)
_TRACEBACK = re.compile(TRACEBACK)
_FILLED = r'(?:"[^"]|\{|\[\s*[^\s\]]|true)'
"""An `error` member that says something: a non-empty string, an object, a non-empty array,
`true` (`"error": null`, `false`, `""` and `[]` are how many APIs say "no error")."""
JSON_TEXT = (r'"text": "(?:\s|\\[nrt])*\{(?:[^"{}\[\]\\]|\\.)*?\\"error\\"'
             r'(?:\s|\\[nrt])*:(?:\s|\\[nrt])*(?:\\"[^\\]|\{|\[\s*[^\s\]]|true)')
"""A text block that is a JSON object with a top-level `error` member (FastMCP servers return
`{"error": "…"}` dicts as text), as it reads inside the result's JSON (quotes escaped)."""
JSON_STRUCTURED = (r'"structuredContent": \{(?:[^"{}\[\]]|"(?:[^"\\]|\\.)*")*?"error": '
                   + _FILLED)
"""`structuredContent` whose top-level `error` member says something."""

STARTER_PATTERN = rf'"text": "{START}|{TRACEBACK}|{JSON_TEXT}|{JSON_STRUCTURED}'
"""For a result as the regex matcher sees it (JSON text, `"text": "…"` per text block)."""
STARTER_MESSAGE = ("the call answered error text without isError: true "
                   "(docs/lint.md#error-text)")


def starter_check() -> dict[str, Any]:
    """The assertion `mcptest init` adds to each tool test: a result that does not say
    `isError: true` has no text block that opens as an error."""
    return {"target": "result", "matcher": {"any": [
        {"contains": {"isError": True}}, {"not": {"regex": STARTER_PATTERN}}]},
        "message": STARTER_MESSAGE}


def error_text(result: dict[str, Any] | None) -> str | None:
    """The first line of error text in a result that does not say `isError: true`, else None."""
    if not isinstance(result, dict) or result.get("isError") is True:
        return None
    blocks = result.get("content")
    for block in blocks if isinstance(blocks, list) else []:
        text = block.get("text") if isinstance(block, dict) else None
        if not isinstance(text, str):
            continue
        if _json_error(text):
            return " ".join(text.split())[:160]
        if _START.match(text) or _TRACEBACK.search(text):
            first = text.strip().splitlines()[0] if text.strip() else text
            return " ".join(first.split())[:160]
    structured = result.get("structuredContent")
    if isinstance(structured, dict) and _says_something(structured.get("error")):
        return "structuredContent: " + json.dumps(structured, ensure_ascii=False)[:140]
    return None


def _says_something(member: Any) -> bool:
    """An `error` member that reports one (see `_FILLED`)."""
    if isinstance(member, str):
        return member != ""
    return member is True or isinstance(member, dict) or (isinstance(member, list)
                                                           and bool(member))


def _json_error(text: str) -> bool:
    """The text is a JSON object whose top-level `error` member reports one."""
    if not text.lstrip().startswith("{"):
        return False
    try:
        parsed = json.loads(text)
    except ValueError:
        return False
    return isinstance(parsed, dict) and _says_something(parsed.get("error"))
