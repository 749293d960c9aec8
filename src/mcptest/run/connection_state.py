"""What one server connection holds and says about itself: its transport, tools and server
info, its stderr windows, its timeline marks, its secrets, the messages of a failed start.

`run/lifecycle.py` `Lifecycle` opens and holds the connection and fills this in; run/session.py
adds the calls.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Any, Literal

import anyio

from mcptest.run.call_faults import startup_timeout_message
from mcptest.run.client_config import NO_CLIENT, ClientConfig
from mcptest.run.client_side import ClientSide
from mcptest.run.connect import HttpStatusLog, one_line
from mcptest.run.timeline import Mark, Timeline
from mcptest.suite.models import RemoteServer, StdioServer

if TYPE_CHECKING:
    from mcp import ClientSession

    from mcptest.errors import ServerNotReadyError
    from mcptest.run.stderr_log import StderrLog
    from mcptest.run.wire import WireLog
    from mcptest.telemetry.hooks import Tracing, WireTap

Transport = Literal["stdio", "streamable-http", "sse"]


class Retraced:
    """The tracing tap of a connection, which a later run may swap for its own."""

    def __init__(self, tap: WireTap) -> None:
        self.tap = tap

    def sent(self, item: Any) -> None:
        self.tap.sent(item)

    def received(self, item: Any) -> None:
        self.tap.received(item)


class ConnectionState:
    """State of one connection, and what it reports (see `ServerConnection`)."""

    def __init__(
        self, name: str, spec: StdioServer | RemoteServer, wire: WireLog | None = None,
        client: ClientConfig = NO_CLIENT, tracing: Tracing | None = None,
    ) -> None:
        self.name = name
        self.tracing = tracing
        self.wire = wire
        self.client = ClientSide(client)
        self.timeline = Timeline()
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
        self._startup: anyio.CancelScope | None = None
        self._owner_done = anyio.Event()
        self._call_numbers = itertools.count()
        self._in_flight: dict[int, anyio.CancelScope] = {}
        self._garbled: dict[int, str] = {}
        self._traced: Retraced | None = None
    # -- diagnostics -----------------------------------------------------------------------------

    def stderr_tail(self, max_chars: int = 2000) -> str:
        """The server's captured stderr (stdio), "" for HTTP servers."""
        return self._stderr.tail(max_chars) if self._stderr is not None else ""

    def stderr_mark(self) -> int | None:
        """Where the server's stderr stands now: open a test's window before its request."""
        return self._stderr.mark() if self._stderr is not None else None

    def stderr_since(self, mark: int | None, max_chars: int = 2000) -> str:
        """What the server wrote to stderr since `mark`: the test's own lines."""
        if mark is None or self._stderr is None:
            return ""
        return self._stderr.window(mark, max_chars)

    def retrace(self, tracing: Tracing | None) -> None:
        """A warm connection (`--watch`) joins the current run's trace, not the first one's."""
        if tracing is not None and self._traced is not None:
            self._traced.tap = tracing.wire_tap(self.transport, lambda: self.protocol_version,
                                                lambda: None)

    @property
    def alive(self) -> bool:
        """The connection still holds (a warm server, `run/server_pool.py`, is reused then)."""
        return self._dead is None and not self._owner_done.is_set()

    def timeline_mark(self) -> Mark:
        """Where the connection's exchange stands now: open a test's window before its request."""
        return self.timeline.mark()

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

    def _unreadable(self, why: str) -> str:
        return one_line(f"protocol: the server's answer while {self._phase} cannot be read: "
                        f"{why}", 500)

    def _timeout_message(self) -> str:
        return startup_timeout_message(self.spec.startup_timeout, self._phase,
                                       self._http_log.last_error, self._stderr_lines(3))
