"""The life of a `ServerConnection`: spawn or dial, negotiate, list tools, hold the connection
open in a task of its own, and close (what it holds and reports: run/connection_state.py;
run/session.py adds the calls). A server dying mid-run ends its calls, never the code inside
`async with`."""

from __future__ import annotations

import math
import time
from contextlib import AsyncExitStack, asynccontextmanager
from typing import TYPE_CHECKING, Any, Self

import anyio
from mcp import ClientSession

from mcptest.errors import ServerNotReadyError
from mcptest.run.call_faults import (
    closed_message,
    lost_message,
    unparsed_output,
    unreadable_answer,
    unreadable_error,
)
from mcptest.run.client_config import NO_CLIENT, ClientConfig
from mcptest.run.connect import (
    enter_remote,
    enter_stdio,
    flatten,
    one_line,
    one_line_error,
    plan_remote,
    root_cause,
    startup_failure,
)
from mcptest.run.connection_state import ConnectionState, Retraced
from mcptest.run.negotiate import (
    NEGOTIATION_PHASES,
    RACE_AFTER_S,
    client_info,
    negotiate,
    set_log_level,
)
from mcptest.run.requests import list_tools_raw
from mcptest.run.sdk_logging import quiet_sdk_logging
from mcptest.run.start import start_budget, start_server
from mcptest.run.stderr_log import StderrLog
from mcptest.run.stdio_spawn import plan_stdio
from mcptest.run.wire import TapReader, TapWriter, WireLog
from mcptest.suite.models import RemoteServer, StdioServer

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping
    from pathlib import Path

    from mcptest.run.stdio_spawn import EarlyServer
    from mcptest.telemetry.hooks import Tracing


class Lifecycle(ConnectionState):
    """Opening, holding and closing one connection (see `ServerConnection`)."""

    _early: EarlyServer | None = None
    """A stdio server's process started before the connection (`run/stdio_spawn.py`)."""

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
        client: ClientConfig = NO_CLIENT,
        tracing: Tracing | None = None,
        early: EarlyServer | None = None,
    ) -> AsyncIterator[Self]:
        """Yield a ready connection, or raise `ServerNotReadyError` with a one-line cause.

        The transport and session live in a task of their own that swallows every failure: a
        server dying mid-run must end its calls, never cancel the code inside `async with`.
        With `wire`, every message the server sends is recorded there (run/wire.py); `client`
        is what mcptest declares and answers as a client (run/client_config.py); with
        `tracing`, each request gets a client span and carries its `traceparent`
        (docs/tracing.md). `early`: the stdio server's process, already started.
        """
        quiet_sdk_logging(env)
        conn = cls(name, spec, wire, client, tracing)
        conn._early = early
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
        # from the connection's start, an early process's too: the time it waited for the SDK's
        # import was mcptest's, not the server's (run/stdio_spawn.py)
        started = time.perf_counter()
        budget = self.spec.startup_timeout + start_budget(getattr(self.spec, "start", None))
        scope = self._startup = anyio.CancelScope(deadline=anyio.current_time() + budget)
        try:
            with scope:
                async with AsyncExitStack() as stack:
                    stack.callback(self._close_stderr)
                    await self._connect(stack, base_dir, env)
                    self.startup_ms = (time.perf_counter() - started) * 1000
                    scope.deadline = math.inf  # ready: the startup bound no longer applies
                    self._startup = None
                    ready.set()
                    await stop.wait()
        except BaseException as exc:
            cancelled = anyio.get_cancelled_exc_class()
            if not scope.cancel_called and all(isinstance(e, cancelled) for e in flatten(exc)):
                raise  # cancelled from outside: not ours to judge
            if not ready.is_set() and self._failure is None:  # else `_on_message` set it
                unreadable = unreadable_error(root_cause(exc))
                self._failure = (
                    exc if isinstance(exc, ServerNotReadyError)
                    else ServerNotReadyError(self._timeout_message()) if scope.cancel_called
                    else ServerNotReadyError(self._unreadable(unreadable)) if unreadable
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
            early = self._early
            plan = early.plan if early is not None else plan_stdio(self.name, spec, base_dir, env)
            self._secrets = plan.secrets
            self._stderr = early.stderr if early is not None else StderrLog()
            read, write = await enter_stdio(stack, plan, self._stderr, spec.max_result_bytes,
                                            early)
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
        # the test's timeline (run/timeline.py) sees both directions; the client side's notices
        read = TapReader(TapReader(read, self.timeline), self.client)
        write = TapWriter(write, self.timeline)
        if self.tracing is not None:  # outermost: the timeline sees the traceparent it adds
            self._traced = Retraced(self.tracing.wire_tap(
                self.transport, lambda: self.protocol_version, lambda: None))
            read, write = TapReader(read, self._traced), TapWriter(write, self._traced)
        session = ClientSession(
            read, write, client_info=client_info(), message_handler=self._on_message,
            **self.client.session_kwargs(),
        )
        self._session = await stack.enter_async_context(session)
        self._phase = NEGOTIATION_PHASES[spec.protocol]
        config = self.client.config
        await negotiate(session, spec.protocol, race_after=race_after,
                        capabilities=config.client_capabilities())
        if config.answers.log_level is not None:
            await set_log_level(session, config.answers.log_level)
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
                self._noise = one_line(one_line_error(message), 160)
            return
        unreadable = unreadable_answer(message) if self._startup is not None else None
        if unreadable is not None and self._startup is not None:
            # an answer to the handshake or the listing that will never parse (nested past the
            # JSON parser's depth, say): fail now, not at the startup timeout
            self._failure = ServerNotReadyError(self._unreadable(unreadable))
            self._startup.cancel()
            return
        self._noise = shown
        for number, scope in list(self._in_flight.items()):
            self._garbled.setdefault(number, shown)
            scope.cancel()
