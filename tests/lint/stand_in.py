"""A hand-rolled stdio MCP server for the lint's precision fixtures: each flag turns on one
behaviour a lint rule is about, so every rule gets a true-positive and a true-negative run
against a real process (docs/lint.md).

    python stand_in.py                       # legacy era (initialize), one harmless tool
    --era modern|dual                        # answer server/discover (modern) and initialize (dual)
    --advertise 2026-07-28,2025-11-25        # discover's supportedVersions (default: 2026-07-28)
    --sqlite                                 # read_query/list_tables over an in-memory sqlite,
                                             # failures answered as "Error: ..." text, isError false
    --honest-errors                          # ... the same failures with isError: true
    --check-cursors                          # an unknown tools/list cursor is -32602
    --elicit-secret / --elicit-name          # tools/call of `sign_up` asks, in form mode, for a
                                             # password and API key / for a display name only
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from typing import Any

MODERN, LEGACY = "2026-07-28", "2025-11-25"
CURSOR = "page-2"


def annotations(title: str) -> dict[str, Any]:
    return {"title": title, "readOnlyHint": True, "openWorldHint": False}


def tools(args: argparse.Namespace) -> list[dict[str, Any]]:
    found = [{"name": "get_time", "description": "The current time of the stand-in, in UTC.",
              "inputSchema": {"type": "object", "properties": {}},
              "annotations": annotations("Time")}]
    if args.sqlite:
        found += [
            {"name": "read_query", "description": "Run one SELECT statement on the database.",
             "inputSchema": {"type": "object", "required": ["query"], "properties": {"query": {
                 "type": "string", "examples": ["SELECT * FROM missing_table"],
                 "description": "The SELECT statement to run."}}},
             "annotations": annotations("Read query")},
            {"name": "list_tables", "description": "The names of the tables in the database.",
             "inputSchema": {"type": "object", "properties": {}},
             "annotations": annotations("List tables")},
        ]
    if args.elicit_secret or args.elicit_name:
        found.append({"name": "sign_up", "description": "Create an account for the user.",
                      "inputSchema": {"type": "object", "properties": {}},
                      "annotations": {"title": "Sign up", "readOnlyHint": False,
                                      "destructiveHint": False, "openWorldHint": False}})
    return found


class StandIn:
    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
        self.modern = False
        self.next_id = 1000

    def send(self, body: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", **body}) + "\n")
        sys.stdout.flush()

    def result(self, msg_id: Any, result: dict[str, Any], listing: bool = False) -> None:
        if self.modern:
            result = {**result, "resultType": "complete"}
            if listing:
                result.update(ttlMs=0, cacheScope="private")
        self.send({"id": msg_id, "result": result})

    def error(self, msg_id: Any, code: int, message: str, data: Any = None) -> None:
        error = {"code": code, "message": message, **({"data": data} if data else {})}
        self.send({"id": msg_id, "error": error})

    def text(self, msg_id: Any, text: str, failed: bool = False) -> None:
        content = [{"type": "text", "text": text}]
        self.result(msg_id, {"content": content, **({"isError": True} if failed else {})})

    def handle(self, msg: dict[str, Any]) -> None:
        method, msg_id, params = msg.get("method"), msg.get("id"), msg.get("params") or {}
        era = self.args.era
        if method == "server/discover":
            if era == "legacy":
                self.error(msg_id, -32601, "Method not found")
                return
            self.modern = True
            self.result(msg_id, {"supportedVersions": self.args.advertise.split(","),
                                 "capabilities": {"tools": {}}, "ttlMs": 0,
                                 "cacheScope": "private"})
        elif method == "initialize":
            if era == "modern":
                self.error(msg_id, -32022, "Unsupported protocol version",
                           {"supported": [MODERN], "requested": params.get("protocolVersion")})
                return
            self.result(msg_id, {"protocolVersion": LEGACY, "capabilities": {"tools": {}},
                                 "serverInfo": {"name": "stand-in", "version": "0.0.1"}})
        elif method == "tools/list":
            cursor = params.get("cursor")
            if cursor is not None and cursor != CURSOR and self.args.check_cursors:
                self.error(msg_id, -32602, f"Invalid cursor: {cursor!r}")
                return
            self.result(msg_id, {"tools": tools(self.args)}, listing=True)
        elif method == "tools/call":
            self.call(msg_id, params.get("name"), params.get("arguments") or {})
        elif msg_id is not None and method is not None:
            self.error(msg_id, -32601, "Method not found")

    def call(self, msg_id: Any, name: Any, arguments: dict[str, Any]) -> None:
        honest = self.args.honest_errors
        try:  # like the sqlite reference server: every failure becomes text
            if name == "get_time":
                self.text(msg_id, "2026-01-01T00:00:00Z")
            elif name == "read_query":
                rows = self.db.execute(arguments["query"]).fetchall()
                self.text(msg_id, json.dumps(rows))
            elif name == "list_tables":
                names = self.db.execute("SELECT name FROM sqlite_master").fetchall()
                self.text(msg_id, json.dumps([n for (n,) in names]))
            elif name == "sign_up":
                self.elicit(msg_id)
            else:
                self.error(msg_id, -32602, f"Unknown tool: {name}")
        except Exception as e:  # every failure as text: the behaviour under test
            self.text(msg_id, f"Error: {e}", failed=honest)

    def elicit(self, msg_id: Any) -> None:
        fields: dict[str, Any] = {"display_name": {"type": "string", "title": "Display name"}}
        if self.args.elicit_secret:
            fields["password"] = {"type": "string", "title": "Password", "minLength": 8}
            fields["api_key"] = {"type": "string", "description": "Your OpenAI API key"}
        request = {"mode": "form", "message": "Finish signing up",
                   "requestedSchema": {"type": "object", "properties": fields}}
        if self.modern:  # 2026-07-28: ask through an InputRequiredResult
            self.send({"id": msg_id, "result": {"resultType": "input_required", "inputRequests": {
                "signup": {"method": "elicitation/create", "params": request}}}})
            return
        self.next_id += 1  # legacy: a pushed request, whatever the client declared
        self.send({"id": self.next_id, "method": "elicitation/create", "params": request})
        self.text(msg_id, "asked")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--era", choices=["legacy", "modern", "dual"], default="legacy")
    parser.add_argument("--advertise", default=MODERN)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument("--honest-errors", action="store_true")
    parser.add_argument("--check-cursors", action="store_true")
    parser.add_argument("--elicit-secret", action="store_true")
    parser.add_argument("--elicit-name", action="store_true")
    server = StandIn(parser.parse_args())
    for line in sys.stdin:
        try:
            msg = json.loads(line)
        except ValueError:
            continue
        if isinstance(msg, dict) and "method" in msg:
            server.handle(msg)


if __name__ == "__main__":
    main()
