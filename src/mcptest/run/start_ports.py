"""The ports a started server must own before mcptest sends it anything (docs/suites.md,
"Servers mcptest starts").

The server's `url`, and a `ready:` url or `tcp` target, name host:port endpoints. Those on this
machine (the host resolves to a loopback, wildcard or local interface address) are checked:
before the start, none may be listened on already (another process would get the requests and
the bearer token, and the started server could not bind); until ready, each must be listened on
by the started process tree only. On Linux the listeners and their holders come from /proc
(`run/listeners.py`); elsewhere only the first check runs, as a plain TCP connect.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import anyio

from mcptest.run.listeners import CAN_INSPECT, port_state

if TYPE_CHECKING:
    from mcptest.suite.models import ReadyCheck


@dataclass(frozen=True)
class Endpoint:
    host: str
    port: int
    source: str
    """Which setting names it (`url`, `start.ready.tcp`, …), for messages."""

    @property
    def label(self) -> str:
        return f"{self.host}:{self.port}"


def _from_url(url: str, source: str) -> Endpoint | None:
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return None  # the connection reports a bad port by itself
    return Endpoint(parts.hostname, port, source) if parts.hostname else None


def endpoints(url: str, ready: ReadyCheck | None) -> list[Endpoint]:
    """Every host:port the started server is reached at, without duplicates."""
    found = [_from_url(url, "url")]
    if ready is not None and ready.url is not None:
        found.append(_from_url(ready.url, "start.ready.url"))
    if ready is not None and ready.tcp is not None:
        host, _, port = ready.tcp.rpartition(":")
        found.append(Endpoint(host, int(port), "start.ready.tcp"))
    out: list[Endpoint] = []
    for point in found:
        if point is not None and all((p.host, p.port) != (point.host, point.port) for p in out):
            out.append(point)
    return out


def _bindable(family: int, address: str) -> bool:
    try:
        with socket.socket(family, socket.SOCK_STREAM) as s:
            s.bind((address, 0))
    except OSError:
        return False
    return True


async def resolves_locally(host: str) -> bool:
    """Whether `host` resolves to an address of this machine (where a started process listens)."""
    try:
        infos = await anyio.getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except OSError:
        return False  # unresolvable: connecting fails with its own message
    for family, _type, _proto, _name, sockaddr in infos:
        address = str(sockaddr[0]).split("%", 1)[0]
        ip = ipaddress.ip_address(address)
        if ip.is_loopback or ip.is_unspecified or _bindable(family, address):
            return True
    return False


async def local_endpoints(url: str, ready: ReadyCheck | None) -> list[Endpoint]:
    return [p for p in endpoints(url, ready) if await resolves_locally(p.host)]


async def _answers(point: Endpoint) -> bool:
    try:
        with anyio.fail_after(2.0):
            stream = await anyio.connect_tcp(point.host, point.port)
    except (OSError, TimeoutError):
        return False
    await stream.aclose()
    return True


async def taken(points: list[Endpoint]) -> str | None:
    """Why the server must not be started (a port already listened on), or None."""
    for point in points:
        if CAN_INSPECT:
            state = await anyio.to_thread.run_sync(port_state, point.port, None)
            who = state.foreign if state.listening else None
        else:
            who = "another process" if await _answers(point) else None
        if who is not None:
            return (f"port {point.port} ({point.label}, from {point.source}) is already "
                    f"listened on by {who}; the server was not started, and nothing was sent "
                    "there (stop that process, or give the server a free port)")
    return None


async def not_owned(points: list[Endpoint], root: int) -> str | None:
    """What keeps the started tree (under `root`) from owning every endpoint, or None when it
    does (always None where /proc cannot tell)."""
    if not CAN_INSPECT:
        return None
    for point in points:
        state = await anyio.to_thread.run_sync(port_state, point.port, root)
        if not state.listening:
            return f"nothing listens on {point.label} yet"
        if state.foreign is not None:
            return (f"{point.label} is also listened on by {state.foreign}, which mcptest did "
                    "not start; nothing is sent there")
    return None
