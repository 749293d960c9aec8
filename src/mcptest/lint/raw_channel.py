"""A raw JSON-RPC channel to a server, for the conformance checks (docs/conformance.md).

The SDK client stamps every 2026-07-28 request with the capabilities and version it negotiated,
so it cannot send what a conformance check must: a request declaring no capabilities, one with a
version nobody supports, a cancellation at a chosen moment. This channel sends exactly the JSON
it is given and records every message the server sends back, parsed or not, in order:

- stdio: its own server process (started like the suite's, from `plan_stdio`), one message per
  line each way;
- Streamable HTTP: one POST per request to the suite's URL with its headers and token; a JSON
  answer or an SSE stream of messages ending with the answer.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import anyio
import httpx2
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from mcptest.run.connect import plan_remote
from mcptest.run.stdio_spawn import plan_stdio, spawn
from mcptest.version import __version__

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from anyio.abc import Process

    from mcptest.suite.models import RemoteServer, StdioServer

MODERN = MODERN_PROTOCOL_VERSIONS[-1]
CLIENT = {"name": "mcptest-conformance", "version": __version__}
MAX_LINE = 4 * 1024 * 1024
"""The longest stdout line kept (a larger one is cut: it is checked, not read)."""
NAME_PARAMS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


def meta(capabilities: dict[str, Any] | None = None, version: str = MODERN,
         **extra: Any) -> dict[str, Any]:
    """The `_meta` a 2026-07-28 request carries (no log level unless given in `extra`)."""
    return {"io.modelcontextprotocol/protocolVersion": version,
            "io.modelcontextprotocol/clientInfo": CLIENT,
            "io.modelcontextprotocol/clientCapabilities": capabilities or {}, **extra}


@dataclass
class Received:
    """One thing the server sent: a JSON-RPC message, or a line that is not one."""

    at: float
    message: dict[str, Any] | None
    text: str = ""
    """The raw text when `message` is None (not JSON, or not a JSON-RPC object)."""


@dataclass
class Answer:
    """What one request drew: the response (None on timeout) and the HTTP status, if any."""

    response: dict[str, Any] | None
    status: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    during: list[Received] = field(default_factory=list)
    """Messages received between the request and its response (stdio: on the whole channel)."""

    @property
    def result(self) -> dict[str, Any] | None:
        value = (self.response or {}).get("result")
        return value if isinstance(value, dict) else None

    @property
    def error(self) -> dict[str, Any] | None:
        value = (self.response or {}).get("error")
        return value if isinstance(value, dict) else None


def parse(text: str) -> dict[str, Any] | None:
    """The JSON-RPC 2.0 object on a line, or None when the line is something else."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or value.get("jsonrpc") != "2.0":
        return None
    if "method" in value or ("id" in value and ("result" in value) != ("error" in value)):
        return value
    return None


class Channel(Protocol):
    transport: str
    received: list[Received]

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Answer: ...

    async def notify(self, method: str, params: dict[str, Any]) -> None: ...


class StdioChannel:
    """A server process of our own; every stdout line is recorded."""

    transport = "stdio"

    def __init__(self, process: Process) -> None:
        self.process = process
        self.received: list[Received] = []
        self._ids = iter(range(1, 1_000_000))
        self._waiting: dict[Any, anyio.Event] = {}
        self._answers: dict[Any, dict[str, Any]] = {}
        self.closed = anyio.Event()

    def next_id(self) -> int:
        return next(self._ids)

    async def read(self) -> None:
        assert self.process.stdout is not None
        buffer = b""
        try:
            async for chunk in self.process.stdout:
                buffer += chunk
                while b"\n" in buffer:
                    line, buffer = buffer.split(b"\n", 1)
                    self._line(line[:MAX_LINE].decode("utf-8", "replace"))
                if len(buffer) > MAX_LINE:
                    self._line(buffer[:MAX_LINE].decode("utf-8", "replace"))
                    buffer = b""
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            pass
        finally:
            self.closed.set()
            for event in self._waiting.values():
                event.set()

    def _line(self, text: str) -> None:
        if not text.strip():
            return
        message = parse(text)
        self.received.append(Received(time.monotonic(), message, "" if message else text))
        if message is not None and "method" not in message and message.get("id") in self._waiting:
            self._answers[message["id"]] = message
            self._waiting[message["id"]].set()

    async def write(self, body: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await self.process.stdin.send((json.dumps(body) + "\n").encode())

    async def start(self, method: str, params: dict[str, Any]) -> int:
        """Send a request without waiting for its answer; its id."""
        msg_id = self.next_id()
        self._waiting[msg_id] = anyio.Event()
        await self.write({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})
        return msg_id

    async def wait(self, msg_id: int, timeout: float, since: int = 0) -> Answer:
        with anyio.move_on_after(timeout):
            await self._waiting[msg_id].wait()
        response = self._answers.pop(msg_id, None)
        self._waiting.pop(msg_id, None)
        return Answer(response, during=self.received[since:])

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Answer:
        since = len(self.received)
        msg_id = await self.start(method, params)
        return await self.wait(msg_id, timeout, since)

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        await self.write({"jsonrpc": "2.0", "method": method, "params": params})


def _sse_messages(text: str) -> list[str]:
    events: list[str] = []
    data: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line == "":
            if data:
                events.append("\n".join(data))
            data = []
        elif line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
    return events


class HttpChannel:
    """One POST per request; what each POST's body carries is recorded."""

    transport = "streamable-http"

    def __init__(self, client: httpx2.AsyncClient, url: str, headers: dict[str, str]) -> None:
        self.client = client
        self.url = url
        self.headers = headers
        self.received: list[Received] = []
        self._ids = iter(range(1, 1_000_000))
        self.session: str | None = None

    def headers_for(self, method: str, params: dict[str, Any]) -> dict[str, str]:
        out = {**self.headers, "Content-Type": "application/json",
               "Accept": "application/json, text/event-stream"}
        version = (params.get("_meta") or {}).get("io.modelcontextprotocol/protocolVersion")
        if isinstance(version, str):
            out |= {"MCP-Protocol-Version": version, "Mcp-Method": method}
            key = NAME_PARAMS.get(method)
            if key and isinstance(params.get(key), str):
                out["Mcp-Name"] = params[key]
        elif method != "initialize":
            out["MCP-Protocol-Version"] = params.get("protocolVersion") or "2025-11-25"
        if self.session:
            out["Mcp-Session-Id"] = self.session
        return out

    async def post(self, body: dict[str, Any], headers: dict[str, str],
                   timeout: float) -> Answer:
        since = len(self.received)
        response: dict[str, Any] | None = None
        try:
            with anyio.fail_after(timeout):
                async with self.client.stream("POST", self.url, json=body,
                                              headers=headers) as reply:
                    text = (await reply.aread()).decode("utf-8", "replace")
                    kind = reply.headers.get("content-type", "")
                    status, got = reply.status_code, dict(reply.headers)
        except (TimeoutError, httpx2.HTTPError) as e:
            self.received.append(Received(time.monotonic(), None, f"(no answer: {e!r})"))
            return Answer(None, during=self.received[since:])
        if "mcp-session-id" in got and body.get("method") == "initialize":
            self.session = got["mcp-session-id"]
        parts = _sse_messages(text) if "text/event-stream" in kind else ([text] if text else [])
        for part in parts:
            message = parse(part)
            self.received.append(Received(time.monotonic(), message, "" if message else part))
            if message is not None and message.get("id") == body.get("id") \
                    and "method" not in message:
                response = message
        return Answer(response, status, got, self.received[since:])

    async def request(self, method: str, params: dict[str, Any], timeout: float) -> Answer:
        body = {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}
        return await self.post(body, self.headers_for(method, params), timeout)

    async def notify(self, method: str, params: dict[str, Any]) -> None:
        body = {"jsonrpc": "2.0", "method": method, "params": params}
        try:
            async with self.client.stream("POST", self.url, json=body,
                                          headers=self.headers_for(method, params)) as reply:
                await reply.aread()
        except httpx2.HTTPError:
            pass


async def open_stdio(name: str, spec: StdioServer, base_dir: Path, env: Mapping[str, str],
                     tg: anyio.abc.TaskGroup) -> StdioChannel:
    """Start the server once more for a channel of our own (closed by `close_stdio`)."""
    process = await spawn(plan_stdio(name, spec, base_dir, env), subprocess.DEVNULL)
    channel = StdioChannel(process)
    tg.start_soon(channel.read)
    return channel


async def close_stdio(channel: StdioChannel) -> None:
    """Close stdin, give the server a moment to exit, then end it."""
    process = channel.process
    if process.stdin is not None:
        await process.stdin.aclose()
    with anyio.move_on_after(2.0):
        await process.wait()
    if process.returncode is None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)  # the group: an npx wrapper's child too
        with anyio.move_on_after(2.0):
            await process.wait()


def http_channel(name: str, spec: RemoteServer, env: Mapping[str, str],
                 client: httpx2.AsyncClient) -> HttpChannel:
    return HttpChannel(client, spec.url, dict(plan_remote(name, spec, env).headers))
