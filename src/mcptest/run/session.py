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

import time
from typing import Any

import anyio
import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, REQUEST_TIMEOUT
from pydantic import ValidationError

from mcptest.run.bounded_stdio import TOO_LARGE, TOO_LARGE_PREFIX
from mcptest.run.call_faults import (
    GARBLED,
    closed_message,
    http_fault,
    lost_message,
    timeout_text,
    too_large_line,
)
from mcptest.run.connect import (
    one_line,
    one_line_error,
    root_cause,
)
from mcptest.run.lifecycle import Lifecycle
from mcptest.run.requests import RAW, CallOutcome, build_request

# Extra time a call may take beyond its timeout before we stop waiting on our own: covers a
# transport that never starts the SDK's request clock (a server not reading its stdin).
CALL_GRACE_S = 1.0
# How long a call that saw the HTTP connection close waits for the transport's own error.
OWNER_GRACE_S = 2.0


async def _progress_seen(progress: float, total: float | None, message: str | None) -> None:
    """The SDK sends a progress token only with a callback; the tap records the notices."""


class ServerConnection(Lifecycle):
    """A ready connection; build it with `ServerConnection.open(...)`."""

    # -- calls -----------------------------------------------------------------------------------

    async def call_tool(self, tool: str, args: dict[str, Any], timeout: float) -> CallOutcome:
        """Call a tool; every failure comes back as data, never as an exception."""
        return await self.send(build_request("tools/call", {"name": tool, "arguments": args}),
                               timeout)

    async def send(self, request: Any, timeout: float, *, progress: bool = False) -> CallOutcome:
        """Send one request; every failure comes back as data, never as an exception.

        With `progress`, the request carries a progress token (the notifications are recorded
        by the client side's tap, in wire order)."""
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
                        request, RAW, request_read_timeout_seconds=timeout,
                        progress_callback=_progress_seen if progress else None,
                    )
                    return done(result=raw)  # bounded as read: `bounded_stdio`, `bounded_http`
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
                return done(transport_error=too_large_line(self.name, self.spec.max_result_bytes,
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
            return done(transport_error=one_line_error(cause))
        finally:
            self._in_flight.pop(number, None)
            self._garbled.pop(number, None)
