"""Choosing the protocol era of a connection: the 2026-07-28 `server/discover` probe or the
`initialize` handshake.

The SDK's own `mode="auto"` waits up to a fixed 10 s for a `server/discover` answer, which a
server that silently drops unknown requests never sends. Here, once the probe has been pending
for `race_after` seconds, the `initialize` request is sent as well and the first good answer
wins. On stdio the probe always reaches the server first, so a server that answers it has
already locked itself to the modern era and turns the late `initialize` down (-32022), which is
ignored; a server that ignores it answers `initialize`. Either way the loser is abandoned
without a cancel notification (the spec forbids cancelling either method).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import anyio
import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types import UNSUPPORTED_PROTOCOL_VERSION
from mcp_types.version import (
    HANDSHAKE_PROTOCOL_VERSIONS,
    LATEST_HANDSHAKE_VERSION,
    LATEST_MODERN_VERSION,
    MODERN_PROTOCOL_VERSIONS,
)
from pydantic import ValidationError

from mcptest.errors import McpTestError
from mcptest.version import __version__

if TYPE_CHECKING:
    from mcp import ClientSession

Mode = Literal["auto", "legacy", "2026-07-28"]
# How long the discover probe may stay unanswered before `initialize` is raced against it.
RACE_AFTER_S = 0.5


class NegotiationError(McpTestError):
    """Neither era could be agreed on; the message says why."""


NEGOTIATION_PHASES = {
    "auto": "negotiating the protocol version",
    "legacy": "waiting for the initialize answer (protocol: legacy)",
    "2026-07-28": "waiting for the server/discover answer (protocol: 2026-07-28)",
}
"""What a server is waited on for while it negotiates, for the not-ready message."""


def client_info() -> types.Implementation:
    return types.Implementation(name="mcptest", version=__version__)


async def negotiate(session: ClientSession, mode: Mode, *, race_after: float | None,
                    capabilities: types.ClientCapabilities | None = None) -> None:
    """Leave `session` adopted at one era, or raise (MCPError / NegotiationError).

    `capabilities` go into the handshake; a 2026-07-28 request carries the ones the SDK builds
    from the session's callbacks, which `ClientConfig.client_capabilities` mirrors."""
    caps = capabilities or types.ClientCapabilities()
    if mode == "legacy":
        await _finish_handshake(session, await _send_initialize(session, caps))
    elif mode == "2026-07-28":
        raw = await session.send_discover(LATEST_MODERN_VERSION)
        result = _parse_discover(raw)
        if result is None:
            raise NegotiationError("server/discover answer is not a 2026-07-28 DiscoverResult")
        session.adopt(result)
    else:
        await _auto(session, race_after, caps)


async def set_log_level(session: ClientSession, level: types.LoggingLevel) -> None:
    """Ask a handshake-era server with the logging capability for log notifications from
    `level` up (a 2026-07-28 request carries the level in its own `_meta`)."""
    caps = session.server_capabilities
    if session.initialize_result is None or caps is None or caps.logging is None:
        return
    await session.send_request(
        types.SetLevelRequest(params=types.SetLevelRequestParams(level=level)), types.EmptyResult)


def _parse_discover(raw: dict[str, Any]) -> types.DiscoverResult | None:
    """A discover result naming a modern version we speak, else None (legacy evidence)."""
    try:
        result = types.DiscoverResult.model_validate(raw)
    except ValidationError:
        return None
    if not any(v in result.supported_versions for v in MODERN_PROTOCOL_VERSIONS):
        return None
    return result


def _mutual_modern(err: MCPError) -> list[str] | None:
    """From a -32022 error: the modern versions both sides speak ([] if none; None if unsaid)."""
    try:
        data = types.UnsupportedProtocolVersionErrorData.model_validate(err.error.data)
    except ValidationError:
        return None
    return [v for v in MODERN_PROTOCOL_VERSIONS if v in data.supported]


async def _send_initialize(session: ClientSession,
                           caps: types.ClientCapabilities) -> types.InitializeResult:
    request = types.InitializeRequest(
        params=types.InitializeRequestParams(
            protocol_version=LATEST_HANDSHAKE_VERSION,
            capabilities=caps,
            client_info=client_info(),
        )
    )
    return await session.send_request(request, types.InitializeResult)


async def _finish_handshake(session: ClientSession, result: types.InitializeResult) -> None:
    if result.protocol_version not in HANDSHAKE_PROTOCOL_VERSIONS:
        raise NegotiationError(f"server answered initialize with {result.protocol_version!r}")
    session.adopt(result)
    await session.send_notification(types.InitializedNotification())


async def _auto(session: ClientSession, race_after: float | None,
                caps: types.ClientCapabilities) -> None:
    """Probe discover; fall back to (or, after `race_after`, race) the initialize handshake."""
    send, receive = anyio.create_memory_object_stream[tuple[str, Any]](8)

    async def run(kind: str, coro: Any) -> None:
        try:
            outcome: Any = await coro
        except MCPError as e:
            outcome = e
        await send.send((kind, outcome))

    async with send, receive, anyio.create_task_group() as tg:
        pending = {"discover"}
        errors: dict[str, MCPError] = {}
        init_started = reprobed = False
        tg.start_soon(run, "discover", session.send_discover(LATEST_MODERN_VERSION))

        def start_initialize() -> None:
            nonlocal init_started
            if not init_started:
                init_started = True
                pending.add("initialize")
                tg.start_soon(run, "initialize", _send_initialize(session, caps))

        while pending:
            got: tuple[str, Any] | None = None
            if init_started or race_after is None:
                got = await receive.receive()
            else:
                with anyio.move_on_after(race_after):
                    got = await receive.receive()
            if got is None:  # the probe is still unanswered: race the handshake against it
                start_initialize()
                continue
            kind, outcome = got
            pending.discard(kind)
            if isinstance(outcome, MCPError):
                errors[kind] = outcome
                mutual = _mutual_modern(outcome)
                if kind == "initialize":
                    continue  # -32022 here: the server locked itself modern; discover answers
                if outcome.code == UNSUPPORTED_PROTOCOL_VERSION and mutual and not reprobed:
                    reprobed = True  # once more, at the newest version both sides speak
                    pending.add("discover")
                    tg.start_soon(run, "discover", session.send_discover(mutual[-1]))
                    continue
                start_initialize()
                continue
            if kind == "initialize":
                await _finish_handshake(session, outcome)
                break
            result = _parse_discover(outcome)
            if result is None:  # answers discover but advertises only handshake-era versions
                start_initialize()
                continue
            session.adopt(result)
            break
        else:
            raise errors.get("initialize") or errors["discover"]
        tg.cancel_scope.cancel()  # abandon the loser (no cancel notification for either)
