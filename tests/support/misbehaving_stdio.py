"""A stdio MCP server (handshake era, `protocol: legacy`) that breaks the protocol on request.

    python misbehaving_stdio.py

Tools: `ok` echoes `text`; `noise` writes a log line on stdout instead of its answer; `badrpc`
answers with JSON that is no JSON-RPC message (an id, but neither `result` nor `error`);
`notjson` writes half a JSON object; `big` answers with a text of `bytes` characters, written in
64 KiB pieces; `bigbare` writes a line of `bytes` characters with no JSON-RPC id at all.
Every other answer is well-formed, so a test can show the connection still works afterwards.
"""

from __future__ import annotations

import json
import sys
from typing import Any

TOOLS = [{"name": n, "inputSchema": {"type": "object"}}
         for n in ("ok", "noise", "badrpc", "notjson", "big", "bigbare")]


def write(text: str) -> None:
    sys.stdout.write(text)
    sys.stdout.flush()


def reply(msg_id: Any, result: Any) -> None:
    write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")


def call(msg_id: Any, name: str, args: dict[str, Any]) -> None:
    if name == "ok":
        reply(msg_id, {"content": [{"type": "text", "text": str(args.get("text", "ok"))}]})
    elif name == "noise":
        write("Traceback? no: INFO worker 3 started, listening on stdout like a web server\n")
    elif name == "badrpc":
        write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "status": "done"}) + "\n")
    elif name == "notjson":
        write('{"jsonrpc": "2.0", "id": ' + json.dumps(msg_id) + ', "result": {"content": [\n')
    elif name in ("big", "bigbare"):
        size = int(args.get("bytes", 1_000_000))
        if name == "big":
            write('{"jsonrpc": "2.0", "id": ' + json.dumps(msg_id)
                  + ', "result": {"content": [{"type": "text", "text": "')
        piece = "x" * 65536
        for _ in range(size // len(piece)):
            sys.stdout.write(piece)
        sys.stdout.write("x" * (size % len(piece)))
        write('"}]}}\n' if name == "big" else "\n")
    else:
        write(json.dumps({"jsonrpc": "2.0", "id": msg_id,
                          "error": {"code": -32602, "message": f"Unknown tool: {name}"}}) + "\n")


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, msg_id = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        if method == "initialize":
            reply(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                           "serverInfo": {"name": "misbehaving-stdio", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(msg_id, {"tools": TOOLS})
        elif method == "tools/call":
            call(msg_id, params.get("name", ""), params.get("arguments") or {})


if __name__ == "__main__":
    main()
