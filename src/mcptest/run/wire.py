"""A tap on a connection's transport streams: every JSON-RPC message the server sends, as sent.

The lint's wire-schema rule (docs/lint.md) validates what the server put on the wire, and the SDK
only hands back what it managed to parse into its own models, so the tap sits between transport
and session and records each envelope (and each line the transport could not parse) before the
session sees it. It also notes which method each request id belongs to, so a result can be
validated against the schema of the request it answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

from mcp_types import JSONRPCError, JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

if TYPE_CHECKING:
    from types import TracebackType

    from mcp.shared.message import SessionMessage

WireKind = Literal["result", "error", "notification", "request", "unparsed"]
MAX_MESSAGES = 10_000
"""A chatty server cannot grow the log without bound; later messages are counted, not kept."""


@dataclass(frozen=True)
class WireMessage:
    """One message received from the server."""

    index: int
    """Position among all messages received on this connection (0-based)."""
    kind: WireKind
    method: str | None
    """The method of a request/notification, or of the request a result/error answers."""
    request_id: str | int | None
    body: dict[str, Any]
    """`result` of a result, `error` of an error, `params` of a request/notification; for an
    unparsed line, `{"text": ...}`."""


@dataclass
class WireLog:
    """What a connection received, in order; fill it by wrapping the transport's streams."""

    messages: list[WireMessage] = field(default_factory=list)
    dropped: int = 0
    _pending: dict[str | int, str] = field(default_factory=dict)

    def sent(self, item: Any) -> None:
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCRequest):
            self._pending[message.id] = message.method

    def received(self, item: Any) -> None:
        if len(self.messages) >= MAX_MESSAGES:
            self.dropped += 1
            return
        index = len(self.messages)
        if isinstance(item, Exception):
            self.messages.append(WireMessage(index, "unparsed", None, None,
                                             {"text": str(item)[:2000]}))
            return
        message = getattr(item, "message", None)
        if isinstance(message, JSONRPCResponse):
            method = self._pending.pop(message.id, None)
            self.messages.append(WireMessage(index, "result", method, message.id,
                                             dict(message.result)))
        elif isinstance(message, JSONRPCError):
            method = self._pending.pop(message.id, None) if message.id is not None else None
            body = message.error.model_dump(by_alias=True, mode="json", exclude_none=True)
            self.messages.append(WireMessage(index, "error", method, message.id, body))
        elif isinstance(message, JSONRPCNotification):
            self.messages.append(WireMessage(index, "notification", message.method, None,
                                             dict(message.params or {})))
        elif isinstance(message, JSONRPCRequest):
            self.messages.append(WireMessage(index, "request", message.method, message.id,
                                             dict(message.params or {})))


class Receiver(Protocol):
    """Whatever records what the server sends (a `WireLog`, the client side's notices)."""

    def received(self, item: Any) -> None: ...


class Sender(Protocol):
    """Whatever records what mcptest sends (a `WireLog`, a test's timeline)."""

    def sent(self, item: Any) -> None: ...


class TapReader:
    """The transport's read stream, recording each item into a `Receiver` as it passes."""

    def __init__(self, inner: Any, log: Receiver) -> None:  # the SDK's ReadStream (private)
        self._inner = inner
        self._log = log

    async def receive(self) -> SessionMessage | Exception:
        item: SessionMessage | Exception = await self._inner.receive()
        self._log.received(item)
        return item

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> TapReader:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        item: SessionMessage | Exception = await self._inner.__anext__()
        self._log.received(item)
        return item

    async def __aenter__(self) -> TapReader:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> bool | None:
        suppress: bool | None = await self._inner.__aexit__(exc_type, exc, tb)
        return suppress

    def __getattr__(self, name: str) -> Any:  # `last_context` and friends of context streams
        return getattr(self._inner, name)


class TapWriter:
    """The transport's write stream, noting the method of each request id sent."""

    def __init__(self, inner: Any, log: Sender) -> None:  # the SDK's WriteStream (private)
        self._inner = inner
        self._log = log

    async def send(self, item: SessionMessage, /) -> None:
        self._log.sent(item)
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> TapWriter:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None,
                        exc: BaseException | None, tb: TracebackType | None) -> bool | None:
        suppress: bool | None = await self._inner.__aexit__(exc_type, exc, tb)
        return suppress

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)
