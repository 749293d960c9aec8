"""A hand-rolled 2026-07-28 stdio server that asks for input through `InputRequiredResult` and
trusts whatever `requestState` comes back: the server the tampered-state check must catch.

Its one tool, `greet`, asks for a name (an elicitation in `inputRequests`, with a plain-text
`requestState`) and on the retry greets whoever was named, never checking the state.

    python careless_server.py
"""

from __future__ import annotations

import json
import sys
from typing import Any

VERSION = "2026-07-28"
TOOL = {"name": "greet", "description": "Greets the person it asks for.",
        "inputSchema": {"type": "object"}}
ASK = {"method": "elicitation/create", "params": {
    "mode": "form", "message": "What is your name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}},
                        "required": ["name"]}}}


def reply(msg_id: Any, result: dict[str, Any]) -> None:
    body = {"jsonrpc": "2.0", "id": msg_id, "result": {"resultType": "complete", **result}}
    sys.stdout.write(json.dumps(body) + "\n")
    sys.stdout.flush()


def call(msg_id: Any, params: dict[str, Any]) -> None:
    state = params.get("requestState")
    if state is None:
        reply(msg_id, {"resultType": "input_required", "inputRequests": {"name": ASK},
                       "requestState": "asked-for-name-0001"})
        return
    answer = (params.get("inputResponses") or {}).get("name") or {}
    name = (answer.get("content") or {}).get("name", "stranger")
    reply(msg_id, {"content": [{"type": "text", "text": f"Hello, {name} (state {state})"}]})


def main() -> None:
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        method, msg_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
        if msg_id is None:
            continue
        if method == "server/discover":
            reply(msg_id, {"supportedVersions": [VERSION], "capabilities": {"tools": {}}})
        elif method == "tools/list":
            reply(msg_id, {"tools": [TOOL], "ttlMs": 0, "cacheScope": "private"})
        elif method == "tools/call":
            call(msg_id, params)
        else:
            body = {"jsonrpc": "2.0", "id": msg_id,
                    "error": {"code": -32601, "message": f"Method not found: {method}"}}
            sys.stdout.write(json.dumps(body) + "\n")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
