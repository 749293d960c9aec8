"""One live connection to one MCP server, shared by all the tests that name it.

`ServerConnection.open` spawns or dials the server, agrees on a protocol era, lists its tools
once, and yields; `call_tool` (and `send`, for any request of run/requests.py) returns the result
exactly as the server put it on the wire and never raises for anything the server does wrong —
timeouts, crashes and protocol garbage become data in a `CallOutcome`.

Closing costs: a well-behaved stdio server exits as soon as its stdin closes (tens to a few
hundred ms). One that ignores stdin EOF costs up to 2 s more before SIGTERM, and one that also
ignores SIGTERM 2 s more before SIGKILL (the SDK's shutdown ladder), so at worst ~4.5 s. HTTP
connections close at once.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from pathlib import Path
from typing import Any, Literal

import anyio
import httpx2
from mcp import ClientSession
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from mcptest.errors import ServerNotReadyError
from mcptest.run.bounded_stdio import TOO_LARGE, TOO_LARGE_PREFIX
from mcptest.run.call_faults import (
    GARBLED,
    answer_size,
    closed_message,
    http_fault,
    lost_message,
    startup_timeout_message,
    timeout_text,
    too_large,
    unparsed_output,
)
from mcptest.run.connect import (
    HttpStatusLog,
    StderrLog,
    describe,
    enter_remote,
    enter_stdio,
    flatten,
    one_line,
    plan_remote,
    plan_stdio,
    root_cause,
    startup_failure,
)
from mcptest.run.negotiate import NEGOTIATION_PHASES, RACE_AFTER_S, client_info, negotiate
from mcptest.run.requests import RAW, CallOutcome, build_request, list_tools_raw
from mcptest.run.sdk_logging import quiet_sdk_logging
from mcptest.run.start import start_budget, start_server
from mcptest.run.wire import TapReader, TapWriter, WireLog
from mcptest.suite.models import RemoteServer, StdioServer

# Extra time a call may take beyond its timeout before we stop waiting on our own: covers a
# transport that never starts the SDK's request clock (a server not reading its stdin).
CALL_GRACE_S = 1.0
# How long a call that saw the HTTP connection close waits for the transport's own error.
OWNER_GRACE_S = 2.0
Transport = Literal["stdio", "streamable-http", "sse"]


class ServerConnection:
    """A ready connection; build it with `ServerConnection.open(...)`."""

    def __init__(
        self, name: str, spec: StdioServer | RemoteServer, wire: WireLog | None = None
    ) -> None:
        self.name = name
        self.wire = wire
        self.spec = spec
        self.transport: Transport = (
            "stdio" if isinstance(spec, StdioServer) else spec.transport
        )
        self.tools: list[dict[str, Any]] = []
        self.protocol_version: str | None = None
        self.capabilities: dict[str, Any] = {}
        self.server_name: str | None = None
        self.server_version: str | None = None
        self.startup_ms: float = 0.0
        self._secrets: list[str] = []
        self._session: ClientSession | None = None
        self._stderr: StderrLog | None = None
        self._http_log = HttpStatusLog()
        self._dead: str | None = None
        self._failure: ServerNotReadyError | None = None
        self._noise: str | None = None
        self._phase = "starting the server"
        self._owner_done = anyio.Event()
        self._call_numbers = itertools.count()
        self._in_flight: dict[int, anyio.CancelScope] = {}
        self._garbled: dict[int, str] = {}

    # -- opening -------------------------------------------------------------------------------

    @classmethod
    @asynccontextmanager
    async def open(
        cls,
        name: str,
        spec: StdioServer | RemoteServer,
        *,
        base_dir: Path,
        env: Mapping[str, str],
        wire: WireLog | None = None,
    ) -> AsyncIterator[ServerConnection]:
        """Yield a ready connection, or raise `ServerNotReadyError` with a one-line cause.

        The transport and session live in a task of their own that swallows every failure: a
        server dying mid-run must end its calls, never cancel the code inside `async with`.
        With `wire`, every message the server sends is recorded there (run/wire.py).
        """
        quiet_sdk_logging(env)
        conn = cls(name, spec, wire)
        ready, stop = anyio.Event(), anyio.Event()
        async with anyio.create_task_group() as tg:
            tg.start_soon(conn._own, base_dir, env, ready, stop)
            await ready.wait()
            if conn._failure is None:
                try:
                    yield conn
                finally:
                    stop.set()
        if conn._failure is not None:
            raise conn._failure

    async def _own(
        self, base_dir: Path, env: Mapping[str, str], ready: anyio.Event, stop: anyio.Event
    ) -> None:
        """Connect within `startup_timeout`, then hold the connection open until `stop`."""
        started = time.perf_counter()
        budget = self.spec.startup_timeout + start_budget(getattr(self.spec, "start", None))
        scope = anyio.CancelScope(deadline=anyio.current_time() + budget)
        try:
            with scope:
                async with AsyncExitStack() as stack:
                    stack.callback(self._close_stderr)
                    await self._connect(stack, base_dir, env)
                    self.startup_ms = (time.perf_counter() - started) * 1000
                    scope.deadline = math.inf  # ready: the startup bound no longer applies
                    ready.set()
                    await stop.wait()
        except BaseException as exc:
            cancelled = anyio.get_cancelled_exc_class()
            if not scope.cancel_called and all(isinstance(e, cancelled) for e in flatten(exc)):
                raise  # cancelled from outside: not ours to judge
            if not ready.is_set():
                self._failure = (
                    exc if isinstance(exc, ServerNotReadyError)
                    else ServerNotReadyError(self._timeout_message()) if scope.cancel_called
                    else ServerNotReadyError(startup_failure(
                        self.spec, exc, self._stderr_lines(3), self._http_log.last_error
                    ))
                )
                self._failure.__cause__ = None if exc is self._failure else exc
            elif self._dead is None:
                self._dead = lost_message(root_cause(exc), self.spec)
        finally:
            if not ready.is_set() and self._failure is None:
                self._failure = ServerNotReadyError(self._timeout_message())
            if self._dead is None:
                self._dead = closed_message(self.transport, self._stderr_lines(3))
            ready.set()
            self._owner_done.set()

    async def _connect(self, stack: AsyncExitStack, base_dir: Path, env: Mapping[str, str]) -> None:
        spec = self.spec
        if isinstance(spec, StdioServer):
            plan = plan_stdio(self.name, spec, base_dir, env)
            self._secrets = plan.secrets
            self._stderr = StderrLog()
            read, write = await enter_stdio(stack, plan, self._stderr, spec.max_result_bytes)
            race_after: float | None = RACE_AFTER_S
        else:
            remote = plan_remote(self.name, spec, env)
            self._secrets = remote.secrets
            if spec.start is not None:  # its output is this server's "stderr" in reports
                self._phase = "starting the server process"
                self._stderr = StderrLog()
                self._secrets += await start_server(stack, self.name, spec, base_dir, env,
                                                    self._stderr)
            self._phase = "connecting"
            read, write, *_ = await enter_remote(stack, spec, remote, self._http_log)
            race_after = None  # every HTTP request gets an answer; no silent-drop trap
        if self.wire is not None:
            read, write = TapReader(read, self.wire), TapWriter(write, self.wire)
        session = ClientSession(
            read, write, client_info=client_info(), message_handler=self._on_message
        )
        self._session = await stack.enter_async_context(session)
        self._phase = NEGOTIATION_PHASES[spec.protocol]
        await negotiate(session, spec.protocol, race_after=race_after)
        self._phase = "listing tools"
        self.protocol_version = session.protocol_version
        caps = session.server_capabilities
        self.capabilities = caps.model_dump(by_alias=True, exclude_none=True) if caps else {}
        info = session.server_info
        if info is not None:
            self.server_name, self.server_version = info.name, info.version or None
        self.tools = await list_tools_raw(session)

    async def _on_message(self, message: Any) -> None:
        """A message the transport could not parse ends every call in flight on this connection
        as a protocol error (stdio allows nothing but JSON-RPC on stdout; the answer may never
        come); other transport faults reach the calls by themselves."""
        shown = unparsed_output(message)
        if shown is None:
            if isinstance(message, Exception):
                self._noise = one_line(describe(message), 160)
            return
        self._noise = shown
        for number, scope in list(self._in_flight.items()):
            self._garbled.setdefault(number, shown)
            scope.cancel()

    # -- calls -----------------------------------------------------------------------------------

    async def call_tool(self, tool: str, args: dict[str, Any], timeout: float) -> CallOutcome:
        """Call a tool; every failure comes back as data, never as an exception."""
        return await self.send(build_request("tools/call", {"name": tool, "arguments": args}),
                               timeout)

    async def send(self, request: Any, timeout: float) -> CallOutcome:
        """Send one request; every failure comes back as data, never as an exception."""
        started = time.perf_counter()
        method = request.method

        def done(**fields: Any) -> CallOutcome:
            return CallOutcome(duration_ms=(time.perf_counter() - started) * 1000, **fields)

        if self._dead is not None or self._session is None:
            return done(transport_error=self._dead or "not connected")
        number = next(self._call_numbers)
        scope = self._in_flight[number] = anyio.CancelScope()
        http_seen = len(self._http_log.statuses)
        try:
            with scope:
                with anyio.move_on_after(timeout + CALL_GRACE_S):
                    raw = await self._session.send_request(
                        request, RAW, request_read_timeout_seconds=timeout
                    )
                    size = answer_size(raw) if self.transport != "stdio" else 0  # stdio: bounded
                    if size > self.spec.max_result_bytes:  # while reading (`bounded_stdio`)
                        return done(transport_error=too_large(self.name, self.spec.max_result_bytes,
                                                                   f"{TOO_LARGE_PREFIX}{size:,}"))
                    return done(result=raw)
                return done(transport_error=timeout_text(timeout, self._noise), timed_out=True)
            return done(transport_error=one_line(GARBLED + self._garbled.pop(number, "?"), 400))
        except MCPError as e:
            elapsed = time.perf_counter() - started
            if e.code == REQUEST_TIMEOUT and elapsed >= timeout * 0.95:
                return done(transport_error=timeout_text(timeout, self._noise), timed_out=True)
            if e.code == CONNECTION_CLOSED and e.error.message == "Connection closed":
                if self.transport == "streamable-http":
                    # This transport ends by raising the real cause (peer gone, read timeout)
                    # in the owner task; give it a moment to record that.
                    with anyio.move_on_after(OWNER_GRACE_S):
                        await self._owner_done.wait()
                self._dead = self._dead or closed_message(self.transport, self._stderr_lines(3))
                return done(transport_error=self._dead)
            if e.code == TOO_LARGE and e.error.message.startswith(TOO_LARGE_PREFIX):
                return done(transport_error=too_large(self.name, self.spec.max_result_bytes,
                                                               e.error.message))
            if self.transport != "stdio":
                fault = http_fault(e.code, e.error.message, self._http_log, http_seen)
                if fault is not None:
                    return done(transport_error=fault)
            return done(error=e.error.model_dump(by_alias=True, mode="json", exclude_none=True))
        except ValidationError as e:
            return done(transport_error=one_line(f"protocol: invalid {method} result: {e}"))
        except Exception as e:  # the transport broke in a way the SDK does not classify
            cause = root_cause(e)
            if isinstance(cause, httpx2.TransportError | OSError):
                self._dead = self._dead or lost_message(cause, self.spec)
                return done(transport_error=self._dead)
            return done(transport_error=describe(cause))
        finally:
            self._in_flight.pop(number, None)
            self._garbled.pop(number, None)

    # -- diagnostics -----------------------------------------------------------------------------

    def stderr_tail(self, max_chars: int = 2000) -> str:
        """The server's captured stderr (stdio), "" for HTTP servers."""
        return self._stderr.tail(max_chars) if self._stderr is not None else ""

    @property
    def session(self) -> ClientSession | None:
        """The live MCP session, for callers that list more than tools (`mcptest init`)."""
        return self._session

    def secrets(self) -> list[str]:
        """Secret values this connection used (bearer token, `{env}` headers and long `{env}`
        stdio values), so reporters can redact them."""
        return list(self._secrets)

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.retire()

    def _stderr_lines(self, n: int) -> str:
        return self._stderr.last_lines(n) if self._stderr is not None else ""

    def _timeout_message(self) -> str:
        return startup_timeout_message(self.spec.startup_timeout, self._phase,
                                       self._http_log.last_error, self._stderr_lines(3))
