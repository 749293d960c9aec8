"""A stdio MCP server (handshake era) whose tools/list answer nests DEPTH objects deep in one
tool's input schema (two JSON levels each), past the JSON parser's depth limit for DEPTH 100 and
more: the answer can never be read (tests/run/test_deep_listing.py).

    python deep_listing.py DEPTH
"""

from __future__ import annotations

import json
import sys
from typing import Any


def reply(msg_id: Any, result: Any) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    depth = int(sys.argv[1])
    schema: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        schema = {"type": "object", "properties": {"a": schema}}
    for line in sys.stdin:
        msg = json.loads(line)
        if msg.get("method") == "initialize":
            reply(msg["id"], {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                              "serverInfo": {"name": "deep-listing", "version": "0.0.1"}})
        elif msg.get("method") == "tools/list":
            reply(msg["id"], {"tools": [{"name": "deep", "inputSchema": schema}]})


if __name__ == "__main__":
    main()
