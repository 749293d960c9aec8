"""The JSON-RPC loop the hostile stdio servers of this folder share (handshake era): answers
initialize and tools/list, hands tools/call to the server, and says Method not found to the
rest. Each server script imports it from its own folder."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any


def reply(msg_id: Any, result: Any) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def serve(name: str, tools: list[dict[str, Any]],
          call: Callable[[dict[str, Any]], Any] | None = None) -> None:
    """Answer stdin until it closes; `call(params)` is a tools/call's result."""
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if method == "initialize":
            reply(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                           "serverInfo": {"name": name, "version": "0.0.1"}})
        elif method == "tools/list":
            reply(msg_id, {"tools": tools})
        elif method == "tools/call" and call is not None:
            reply(msg_id, call(msg.get("params") or {}))
        elif msg_id is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {
                "code": -32601, "message": "Method not found"}}) + "\n")
            sys.stdout.flush()
