"""Both directions of a connection, timestamped, so a test's row can show its JSON-RPC exchange
step by step (docs/view.md).

The lint's `WireLog` (run/wire.py) keeps everything the server sends for validation; this keeps
only the last `MAX_STEPS` messages either way, as references (no copy, no serialization), and
a test reads the window since its mark once its request is done. The window becomes report steps
only for tests that did not pass, as their stderr does: two steps of a passing row would cost
2.3 KB of memory, over a tenth of a row (docs/reports.md, "Scale").
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass
from typing import Any

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from mcptest.report.timeline_models import WireStep

MAX_STEPS = 64
"""Messages a test's window holds at most; earlier ones of a long exchange are counted."""

Mark = tuple[int, float]


class Timeline:
    """The last `MAX_STEPS` messages of one connection, each with its direction and time."""

    def __init__(self) -> None:
        self._items: deque[tuple[float, str, Any]] = deque(maxlen=MAX_STEPS)
        self._count = 0

    def sent(self, item: Any) -> None:
        self._items.append((time.perf_counter(), "sent", item))
        self._count += 1

    def received(self, item: Any) -> None:
        self._items.append((time.perf_counter(), "received", item))
        self._count += 1

    def mark(self) -> Mark:
        """Where the connection stands now: open a test's window before its request."""
        return self._count, time.perf_counter()

    def since(self, mark: Mark) -> tuple[list[tuple[float, str, Any]], int]:
        """The messages since `mark` (at most `MAX_STEPS`) and how many earlier ones of the
        window were not kept."""
        count, _ = mark
        new = self._count - count
        kept = list(self._items)[-new:] if new > 0 else []
        return kept, max(new - len(kept), 0)


def steps(window: list[tuple[float, str, Any]], mark: Mark, *, bodies: bool) -> list[WireStep]:
    """The report's steps of a window (`bodies`: with payloads, for a test that did not pass)."""
    from mcptest.grade.rows import response_for_report

    out: list[WireStep] = []
    for at, direction, item in window:
        kind, method, request_id, body = _parts(item)
        out.append(WireStep(
            at_ms=round(max(at - mark[1], 0.0) * 1000, 3), direction=direction,
            kind=kind, method=method, request_id=request_id,
            body=response_for_report(body) if bodies else None))
    return _answered(out)


@dataclass(frozen=True)
class Exchanged:
    """A test's window of its connection's timeline, made into report steps once the test's
    status is known, when it did not pass."""

    opened: Mark
    window: list[tuple[float, str, Any]]
    dropped: int

    def row(self, status: str) -> dict[str, Any]:
        if status == "passed":
            return {}
        return {"timeline": steps(self.window, self.opened, bodies=True),
                "timeline_dropped": self.dropped}


def _parts(item: Any) -> tuple[str, str | None, str | int | None, Any]:
    if isinstance(item, Exception):
        return "unparsed", None, None, {"text": str(item)[:2000]}
    message = getattr(item, "message", None)
    if isinstance(message, JSONRPCRequest):
        return "request", message.method, message.id, message.params
    if isinstance(message, JSONRPCNotification):
        return "notification", message.method, None, message.params
    if isinstance(message, JSONRPCResponse):
        return "result", None, message.id, message.result
    if isinstance(message, JSONRPCError):
        return "error", None, message.id, message.error.model_dump(
            by_alias=True, mode="json", exclude_none=True)
    return "unparsed", None, None, {"text": repr(item)[:2000]}


def _answered(out: list[WireStep]) -> list[WireStep]:
    """Name the method of each result or error after the request it answers (same direction
    pairing: a request sent is answered by a message received, and the other way round)."""
    asked: dict[tuple[str, str | int], str] = {}
    done: list[WireStep] = []
    for s in out:
        if s.kind == "request" and s.request_id is not None and s.method is not None:
            asked[(s.direction, s.request_id)] = s.method
        elif s.kind in ("result", "error") and s.request_id is not None and s.method is None:
            other = "received" if s.direction == "sent" else "sent"
            method = asked.get((other, s.request_id))
            if method is not None:
                s = s.model_copy(update={"method": method})
        done.append(s)
    return done
