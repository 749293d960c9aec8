"""A stdio MCP server (handshake era) that lists COUNT tools: the first is named `1e3` and the first
two take a string argument whose example YAML would read as a number
(tests/starter/test_init_command.py).

    python many_tools.py COUNT
"""

from __future__ import annotations

import json
import sys
from typing import Any


def reply(msg_id: Any, result: Any) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    count = int(sys.argv[1])
    code = {"type": "object", "required": ["code"],
            "properties": {"code": {"type": "string", "examples": ["0o17"]}}}
    tools = [{"name": "1e3" if i == 0 else f"tool_{i}",
              "inputSchema": code if i < 2 else {"type": "object"}} for i in range(count)]
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if method == "initialize":
            reply(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                           "serverInfo": {"name": "many-tools", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(msg_id, {"tools": tools})
        elif msg_id is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {
                "code": -32601, "message": "Method not found"}}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
