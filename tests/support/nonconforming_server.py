"""A hand-rolled 2026-07-28 MCP server that breaks one conformance rule on request
(docs/conformance.md): with no `--fault` it passes every check; each fault is caught by exactly
the rule named after it.

    python nonconforming_server.py [--fault FAULT]                    # stdio
    python nonconforming_server.py --http --port 8781 [--fault FAULT] # Streamable HTTP at /mcp

Faults (the rule that catches each): client-capability (asks for elicitation whatever the
client declared), input-required-method (answers prompts/list with an InputRequiredResult),
tools-list-varies (a tool appears after the first call), cancelled-request-answered (answers a
cancelled call; stdio), elicitation-mode (asks in URL mode a client that declared form only),
log-without-level (logs on every call), subscriptions-listen (acknowledges without the
subscription id), unsupported-version (answers any version), stdio-stdout (prints a log line on
stdout; stdio), dual-era-consistency (also takes `initialize`, and lists `echo` differently).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import anyio

MODERN = "2026-07-28"
FAULTS = ("client-capability", "input-required-method", "tools-list-varies",
          "cancelled-request-answered", "elicitation-mode", "log-without-level",
          "subscriptions-listen", "unsupported-version", "stdio-stdout", "dual-era-consistency")
HINTS = {"readOnlyHint": True, "destructiveHint": False, "idempotentHint": True,
         "openWorldHint": False}


def tool(name: str, description: str, props: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"name": name, "title": name.capitalize(), "description": description,
            "inputSchema": {"type": "object", "properties": props or {}},
            "annotations": {"title": name.capitalize(), **HINTS}}


class Server:
    def __init__(self, fault: str | None) -> None:
        self.fault = fault
        self.called = False
        self.tasks: dict[Any, anyio.CancelScope] = {}

    def tools(self, legacy: bool = False) -> list[dict[str, Any]]:
        text = {"text": {"type": "string", "description": "The text to send back."}}
        if legacy:
            text = {"text": {"type": "integer", "description": "The text to send back."}}
        found = [tool("echo", "Send the given text back unchanged.", text),
                 tool("slow", "Wait half a second, then say that it is done."),
                 tool("confirm", "Ask the user to confirm, then say what they chose.")]
        if self.fault == "tools-list-varies" and self.called:
            found.append(tool("bonus", "A tool that shows up after the first call."))
        return found

    def result(self, msg_id: Any, body: dict[str, Any], legacy: bool = False) -> dict[str, Any]:
        if not legacy:
            body = {"resultType": "complete", **body}
        return {"jsonrpc": "2.0", "id": msg_id, "result": body}

    def error(self, msg_id: Any, code: int, message: str, data: Any = None) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": msg_id,
                "error": {"code": code, "message": message, **({"data": data} if data else {})}}

    async def answer(self, msg: dict[str, Any]) -> list[dict[str, Any]]:
        """The messages one request draws, its response last."""
        method, msg_id = msg.get("method"), msg.get("id")
        params = msg.get("params") or {}
        meta = params.get("_meta") or {}
        if method == "initialize":
            if self.fault != "dual-era-consistency":
                return [self.error(msg_id, -32022, "Unsupported protocol version",
                                   {"supported": [MODERN]})]
            return [self.result(msg_id, {
                "protocolVersion": "2025-11-25", "capabilities": {"tools": {}},
                "serverInfo": {"name": "nonconforming", "version": "1"}}, legacy=True)]
        if "io.modelcontextprotocol/protocolVersion" not in meta:
            if self.fault == "dual-era-consistency" and method == "tools/list":
                return [self.result(msg_id, {"tools": self.tools(legacy=True)}, legacy=True)]
            return [self.error(msg_id, -32602, "Missing _meta protocol fields")]
        version = meta["io.modelcontextprotocol/protocolVersion"]
        if version != MODERN and self.fault != "unsupported-version":
            return [self.error(msg_id, -32022, "Unsupported protocol version",
                               {"supported": [MODERN], "requested": version})]
        caps = meta.get("io.modelcontextprotocol/clientCapabilities") or {}
        listing = {"ttlMs": 0, "cacheScope": "private"}
        if method == "server/discover":
            versions = [MODERN, "2025-11-25"] if self.fault == "dual-era-consistency" else [MODERN]
            return [self.result(msg_id, {
                "supportedVersions": versions, "capabilities": {"tools": {}, "prompts": {}},
                "serverInfo": {"name": "nonconforming", "version": "1"}, **listing})]
        if method == "tools/list":
            if params.get("cursor") is not None:
                return [self.error(msg_id, -32602, "Invalid cursor")]
            return [self.result(msg_id, {"tools": self.tools(), **listing})]
        if method == "prompts/list":
            if self.fault == "input-required-method":
                return [self.result(msg_id, {"resultType": "input_required", "inputRequests": {
                    "who": {"method": "elicitation/create", "params": {
                        "mode": "form", "message": "Who are you?",
                        "requestedSchema": {"type": "object", "properties": {}}}}}})]
            return [self.result(msg_id, {"prompts": [], **listing})]
        if method == "tools/call":
            return await self.call(msg_id, str(params.get("name")), caps)
        return [self.error(msg_id, -32601, "Method not found")]

    async def call(self, msg_id: Any, name: str, caps: dict[str, Any]) -> list[dict[str, Any]]:
        self.called = True
        before: list[dict[str, Any]] = []
        if self.fault == "log-without-level":
            before.append({"jsonrpc": "2.0", "method": "notifications/message",
                           "params": {"level": "info", "data": f"calling {name}"}})
        if self.fault == "stdio-stdout":
            sys.stdout.write(f"INFO calling {name}\n")
        if name == "echo":
            return [*before, self.text(msg_id, "echo")]
        if name == "slow":
            await anyio.sleep(0.5)
            return [*before, self.text(msg_id, "done")]
        if name == "confirm":
            elicitation = caps.get("elicitation")
            if elicitation is None and self.fault != "client-capability":
                return [*before, self.error(msg_id, -32021, "Elicitation required", {
                    "requiredCapabilities": {"elicitation": {"form": {}}}})]
            mode = "url" if self.fault == "elicitation-mode" else "form"
            request: dict[str, Any] = {"mode": mode, "message": "Go ahead?"}
            if mode == "url":
                request |= {"url": "https://example.com/confirm", "elicitationId": "e1"}
            else:
                request["requestedSchema"] = {"type": "object",
                                              "properties": {"ok": {"type": "boolean"}}}
            return [*before, self.result(msg_id, {"resultType": "input_required", "inputRequests": {
                "ok": {"method": "elicitation/create", "params": request}}})]
        return [*before, self.error(msg_id, -32602, f"Unknown tool: {name}")]

    def text(self, msg_id: Any, text: str) -> dict[str, Any]:
        return self.result(msg_id, {"content": [{"type": "text", "text": text}]})

    def acknowledgement(self, msg: dict[str, Any]) -> dict[str, Any]:
        params = msg.get("params") or {}
        meta = {} if self.fault == "subscriptions-listen" else {
            "io.modelcontextprotocol/subscriptionId": msg.get("id")}
        return {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged",
                "params": {"_meta": meta, "notifications": params.get("notifications") or {}}}


async def serve_stdio(server: Server) -> None:
    lock = anyio.Lock()

    async def send(message: dict[str, Any]) -> None:
        async with lock:
            sys.stdout.write(json.dumps(message) + "\n")
            sys.stdout.flush()

    async def handle(msg: dict[str, Any]) -> None:
        with anyio.CancelScope() as scope:
            server.tasks[msg.get("id")] = scope
            for message in await server.answer(msg):
                await send(message)
        server.tasks.pop(msg.get("id"), None)

    async with anyio.create_task_group() as tg:
        async for line in anyio.wrap_file(sys.stdin):
            try:
                msg = json.loads(line)
            except ValueError:
                continue
            if msg.get("method") == "notifications/cancelled":
                scope = server.tasks.get((msg.get("params") or {}).get("requestId"))
                if scope is not None and server.fault != "cancelled-request-answered":
                    scope.cancel()
            elif msg.get("method") == "subscriptions/listen":
                await send(server.acknowledgement(msg))
            elif "id" in msg and "method" in msg:
                tg.start_soon(handle, msg)
        tg.cancel_scope.cancel()


def http_app(server: Server) -> Any:
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import JSONResponse, Response, StreamingResponse
    from starlette.routing import Route

    async def mcp(request: Request) -> Response:
        origin = request.headers.get("origin")
        host = request.headers.get("host", "").rsplit(":", 1)[0]
        if (origin and not origin.startswith("http://127.0.0.1")) or host != "127.0.0.1":
            return Response(status_code=403 if origin else 421)
        msg = await request.json()
        if "id" not in msg:
            return Response(status_code=202)
        if msg.get("method") == "subscriptions/listen":
            async def stream() -> AsyncIterator[str]:
                yield f"data: {json.dumps(server.acknowledgement(msg))}\n\n"
                await anyio.sleep(30)
            return StreamingResponse(stream(), media_type="text/event-stream")
        messages = await server.answer(msg)
        last = messages[-1]
        code = (last.get("error") or {}).get("code")
        status = 400 if code in (-32021, -32022, -32602) else 200
        if len(messages) == 1 or status == 400:
            return JSONResponse(last, status_code=status)
        body = "".join(f"data: {json.dumps(m)}\n\n" for m in messages)
        return Response(body, media_type="text/event-stream")

    return Starlette(routes=[Route("/mcp", mcp, methods=["POST"])])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--fault", choices=FAULTS)
    parser.add_argument("--http", action="store_true")
    parser.add_argument("--port", type=int, default=8781)
    args = parser.parse_args()
    server = Server(args.fault)
    if not args.http:
        anyio.run(serve_stdio, server)
        return
    import uvicorn

    uvicorn.run(http_app(server), host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
