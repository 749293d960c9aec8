"""A tiny hand-rolled stdio MCP server (2025-11-25 era) for the edge cases real SDK servers
never show: it silently drops requests it does not know (so a `server/discover` probe gets no
answer at all), answers with a real JSON-RPC error, sends a malformed result, and can refuse to
start or never answer.

    python raw_server.py serve          # the legacy server described above
    python raw_server.py exit           # writes a complaint to stderr and exits 3 at once
    python raw_server.py mute           # reads stdin forever and never answers
    python raw_server.py notools        # like serve, but without tools/list
    python raw_server.py olddiscover    # like serve, but answers server/discover with only
                                        # handshake-era versions (a legacy advertisement)
    python raw_server.py shuffle        # like serve, but every other tools/list is reversed
    python raw_server.py badwire        # like serve, but sends a log notification without its
                                        # `level` and a resources/list result whose resource
                                        # lacks `uri` (wire-schema lint tests)
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

TOOLS: list[dict[str, Any]] = [
    {"name": "echo", "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}}},
    {"name": "cwd", "inputSchema": {"type": "object"}},
    {"name": "rpc_error", "inputSchema": {"type": "object", "required": ["id"],
                                          "properties": {"id": {"type": "string"}}}},
    {"name": "no_content", "inputSchema": {"type": "object"}},
    {"name": "garbage", "inputSchema": {"type": "object"}},
]


def reply(msg_id: Any, *, result: Any = None, error: dict[str, Any] | None = None) -> None:
    body: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id}
    if error is not None:
        body["error"] = error
    else:
        body["result"] = result
    sys.stdout.write(json.dumps(body) + "\n")
    sys.stdout.flush()


def call(msg_id: Any, name: str, args: dict[str, Any]) -> None:
    if name == "echo":
        text = str(args.get("text", ""))
        reply(msg_id, result={"content": [{"type": "text", "text": text}], "vendorField": 7})
    elif name == "cwd":
        reply(msg_id, result={"content": [{"type": "text", "text": os.getcwd()}]})
    elif name == "rpc_error":
        reply(msg_id, error={"code": -32602, "message": "no such thing", "data": {"hint": "x"}})
    elif name == "no_content":
        reply(msg_id, result={"isError": False})
    elif name == "garbage":  # a log line on stdout instead of an answer
        sys.stdout.write("INFO starting work on request\n")
        sys.stdout.flush()
    else:
        reply(msg_id, error={"code": -32602, "message": f"Unknown tool: {name}"})


def notify(method: str, params: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "method": method, "params": params}) + "\n")
    sys.stdout.flush()


def serve(no_tools: bool = False, old_discover: bool = False, bad_wire: bool = False,
          shuffle: bool = False) -> None:
    listed = 0
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, msg_id = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        if method == "initialize":
            reply(msg_id, result={
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}, "resources": {}} if bad_wire else {"tools": {}},
                "serverInfo": {"name": "raw-legacy", "version": "0.0.1"},
            })
        elif method == "notifications/initialized" and bad_wire:
            notify("notifications/message", {"logger": "raw", "data": "no level here"})
        elif method == "resources/list" and bad_wire:
            reply(msg_id, result={"resources": [{"name": "no-uri", "mimeType": "text/plain"}]})
        elif method == "resources/templates/list" and bad_wire:
            reply(msg_id, result={"resourceTemplates": []})
        elif method == "server/discover" and old_discover:
            reply(msg_id, result={
                "supportedVersions": ["2025-06-18", "2025-11-25"],
                "capabilities": {"tools": {}},
                "resultType": "complete",
                "ttlMs": 0,
                "cacheScope": "public",
            })
        elif method == "tools/list" and not no_tools:
            listed += 1
            tools = TOOLS[::-1] if shuffle and listed % 2 == 0 else TOOLS
            reply(msg_id, result={"tools": tools})
        elif method == "tools/call":
            call(msg_id, params.get("name", ""), params.get("arguments") or {})
        elif msg_id is not None and method == "tools/list":
            reply(msg_id, error={"code": -32601, "message": "Method not found"})
        # everything else, server/discover included, is dropped without a word


def main() -> None:
    mode = sys.argv[1] if len(sys.argv) > 1 else "serve"
    if mode == "exit":
        sys.stderr.write("raw server: missing configuration file settings.toml\n")
        sys.stderr.flush()
        sys.exit(3)
    if mode == "mute":
        for _ in sys.stdin:
            pass
        return
    serve(no_tools=mode == "notools", old_discover=mode == "olddiscover",
          bad_wire=mode == "badwire", shuffle=mode == "shuffle")


if __name__ == "__main__":
    main()
