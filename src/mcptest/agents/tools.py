"""MCP tools → the function-calling tool list a model sees, and back to (server, tool).

A tool keeps its own name unless two servers offer the same one; then both become
`<server>__<tool>`. Names are cut to what providers accept (`[A-Za-z0-9_-]{1,64}`). Input schemas
go through as written, minus `$schema`, and always as an object schema.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from typing import Any

_BAD = re.compile(r"[^A-Za-z0-9_-]")


@dataclass(frozen=True)
class ToolRoute:
    server: str
    tool: str


def _safe(name: str) -> str:
    return _BAD.sub("_", name)[:64] or "tool"


def _parameters(schema: Any) -> dict[str, Any]:
    if not isinstance(schema, dict):
        return {"type": "object", "properties": {}}
    out = {k: v for k, v in schema.items() if k not in ("$schema", "$id")}
    out.setdefault("type", "object")
    if out.get("type") == "object":
        out.setdefault("properties", {})
    return out


def function_tools(listed: dict[str, list[dict[str, Any]]]
                   ) -> tuple[list[dict[str, Any]], dict[str, ToolRoute]]:
    """`listed`: server name → its tools/list entries. Returns (tools for litellm, routes)."""
    counts = Counter(str(t.get("name")) for tools in listed.values() for t in tools)
    specs: list[dict[str, Any]] = []
    routes: dict[str, ToolRoute] = {}
    for server, tools in listed.items():
        for t in tools:
            name = str(t.get("name"))
            exposed = _safe(f"{server}__{name}" if counts[name] > 1 else name)
            while exposed in routes:
                exposed = _safe(exposed[:60] + "_x")
            routes[exposed] = ToolRoute(server, name)
            fn: dict[str, Any] = {"name": exposed, "parameters": _parameters(t.get("inputSchema"))}
            if t.get("description"):
                fn["description"] = str(t["description"])[:1024]
            specs.append({"type": "function", "function": fn})
    return specs, routes
