"""A stdio MCP server (handshake era) that leaks the secret it was given, everywhere it can
(tests/cli/test_secret_leaks.py).

    python echo_secret.py           # serves; the secret is $SERVICE_CREDENTIAL
    python echo_secret.py exit      # prints `--token=<secret>` on stderr and exits 3 at start

Serving, its one tool `whoami` describes itself with the secret ("connected with <secret>") and
offers it as its argument's default, and its answer carries it as `api_key=<secret>` in the
text (the shape redaction knows) and, under a neutral key, in `structuredContent`.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

SECRET = os.environ.get("SERVICE_CREDENTIAL", "")


def reply(msg_id: Any, result: Any) -> None:
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "result": result}) + "\n")
    sys.stdout.flush()


def main() -> None:
    if sys.argv[1:] == ["exit"]:
        sys.stderr.write(f"fatal: upstream refused credentials --token={SECRET}\n")
        sys.exit(3)
    tool = {"name": "whoami", "description": f"Says who you are; connected with {SECRET}",
            "inputSchema": {"type": "object",
                            "properties": {"as": {"type": "string", "default": SECRET}}}}
    for line in sys.stdin:
        msg = json.loads(line)
        method, msg_id = msg.get("method"), msg.get("id")
        if method == "initialize":
            reply(msg_id, {"protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                           "serverInfo": {"name": "echo-secret", "version": "0.0.1"}})
        elif method == "tools/list":
            reply(msg_id, {"tools": [tool]})
        elif method == "tools/call":
            reply(msg_id, {"content": [{"type": "text", "text": f"api_key={SECRET}"}],
                           "structuredContent": {"credential": SECRET,
                                                 "nested": [{"value": SECRET}]}})
        elif msg_id is not None:
            sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": msg_id, "error": {
                "code": -32601, "message": "Method not found"}}) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
