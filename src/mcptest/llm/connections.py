"""The fast route's keep-alive connections: HTTP/1.1 over anyio's streams, framed by h11.

The route sends one request shape (a JSON POST) and reads one answer shape, so it needs no
request and response models, URL parsing, auth, cookies, proxies or HTTP/2: h11 (the HTTP/1.1
state machine httpx and httpcore are built on) frames the bytes, anyio opens the socket and the
TLS layer. httpcore's import (its sync twin, HTTP/2, SOCKS, proxies) cost ~25 ms inside the
first judge request and its pool ~0.3 ms of CPU a call (docs/judges.md, "Which HTTP client").

One connection per request in flight, reused from a free list per (event loop, origin): the
run's `JudgePool` already bounds the requests in flight. A kept connection is reused only while
it is idle, younger than `KEEPALIVE_S` since its last answer and has nothing to read (a server
that closed it has: the EOF waits in the socket, since anyio reads only when asked). Plain-HTTP
origins never load a CA bundle; https ones share one TLS context (certifi's bundle, loaded
once). No proxy and no redirects. Failures are the route's `ProviderError`s: a request h11
cannot form (a header value with a newline) is `client` and never sent, one never delivered
is `unreachable`, a deadline passed is `timeout`, anything else on the wire `transport`.
"""

from __future__ import annotations

import os
import select
import socket
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from ipaddress import IPv4Address
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import anyio

from mcptest.errors import ProviderError
from mcptest.llm.provider_errors import shown_url, unformed, unreachable

if TYPE_CHECKING:
    import ssl

    from anyio.abc import ByteStream

KEEPALIVE_S = 30.0
READ_SIZE = 65536
Headers = Sequence[tuple[bytes, bytes]]


@dataclass(frozen=True)
class HttpAnswer:
    """A whole HTTP answer: status, headers (names in lower case, as h11 gives them), body."""

    status: int
    headers: list[tuple[bytes, bytes]]
    content: bytes

    def header(self, name: str) -> str | None:
        key = name.lower().encode()
        return next((v.decode("latin-1") for k, v in self.headers if k == key), None)


@dataclass(frozen=True)
class Origin:
    """Where a URL's requests go: scheme, host to connect to, port, and its request target."""

    tls: bool
    host: str
    port: int
    target: bytes
    address: bool = False
    """`host` is an IPv4 address: connected without a name lookup (`_tcp_to_address`)."""

    @classmethod
    def of(cls, url: str) -> Origin:
        """Raises `ProviderError("client")` for a URL no request can be sent to (named
        without its userinfo: `shown_url`)."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        try:
            port = parts.port
        except ValueError as e:  # its words quote what it took for the port: never shown
            raise ProviderError("client", "the judge's base URL has a bad port: "
                                f"{shown_url(url)}") from e
        if scheme not in ("http", "https") or not parts.hostname:
            raise ProviderError("client", "the judge's base URL must start with http:// or "
                                f"https:// and name a host: {shown_url(url)}")
        target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        return cls(scheme == "https", parts.hostname, port or (443 if scheme == "https" else 80),
                   target.encode(), _ipv4(parts.hostname))


async def _tcp_to_address(host: str, port: int) -> ByteStream:
    """A plain TCP stream to an IPv4 address, connected here and handed to anyio: what
    `anyio.connect_tcp` does for an address (its happy-eyeballs task group and name parsing are
    for host names), at ~0.12 ms of CPU a connection against ~0.3 ms. A run's first wave opens
    one connection per request in flight (docs/architecture.md, "Costs")."""
    from anyio.abc import SocketStream

    # IPPROTO_TCP named: asyncio sets TCP_NODELAY (as anyio's own sockets have it) only on a
    # socket whose protocol says TCP, and 0 ("the default") does not
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setblocking(False)
        try:
            sock.connect((host, port))
        except BlockingIOError:
            await anyio.wait_writable(sock)
            if err := sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
                raise OSError(err, os.strerror(err)) from None  # its subclass: refused …
        return await SocketStream.from_socket(sock)
    except BaseException:
        sock.close()
        raise


def _ipv4(host: str) -> bool:
    try:
        IPv4Address(host)
    except ValueError:
        return False
    return True


def _readable(fd: int) -> bool:
    """Whether `fd` has something to read now (poll where there is one: any fd number)."""
    if hasattr(select, "poll"):
        p = select.poll()
        p.register(fd, select.POLLIN)
        return bool(p.poll(0))
    return bool(select.select([fd], [], [], 0)[0])


class _Connection:
    """One socket (TLS or not) and the h11 state of the exchanges on it. `raw` is the socket
    under the stream (asyncio's transport socket: it has a `fileno`, not `recv`)."""

    def __init__(self, stream: ByteStream, raw: Any) -> None:
        import h11

        self.stream = stream
        self.raw = raw
        self.state = h11.Connection(h11.CLIENT)
        self.idle_since = time.monotonic()

    def reusable(self) -> bool:
        """Idle, not expired, and nothing (an EOF, stray bytes) waiting in the socket."""
        import h11

        if self.state.our_state is not h11.IDLE or self.raw is None or self.raw.fileno() < 0:
            return False
        if time.monotonic() - self.idle_since > KEEPALIVE_S:
            return False
        return not _readable(self.raw.fileno())  # an EOF, or bytes that are not ours

    async def exchange(self, request: Any, content: bytes,
                       sent: Callable[[], None] | None = None) -> HttpAnswer:
        """Send one POST (its `h11.Request`, then `content`) and read its whole answer (the
        caller bounds it in time); `sent` is called once the request is written, before its
        answer is awaited."""
        import h11

        conn = self.state
        await self.stream.send(b"".join((conn.send(request) or b"", conn.send(h11.Data(
            data=content)) or b"", conn.send(h11.EndOfMessage()) or b"")))
        if sent is not None:
            sent()
        status, got, body = 0, [], bytearray()
        while True:
            event = conn.next_event()
            if event is h11.NEED_DATA:
                try:
                    data = await self.stream.receive(READ_SIZE)
                except anyio.EndOfStream:
                    data = b""
                conn.receive_data(data)
            elif isinstance(event, h11.Response):
                status, got = event.status_code, list(event.headers)
            elif isinstance(event, h11.Data):
                body += event.data
            elif isinstance(event, h11.EndOfMessage):
                break
            elif isinstance(event, h11.ConnectionClosed):
                raise ProviderError("transport", "the server closed the connection without "
                                    "an answer")
        if conn.our_state is h11.DONE and conn.their_state is h11.DONE:
            conn.start_next_cycle()
            self.idle_since = time.monotonic()
        return HttpAnswer(status, got, bytes(body))

    async def aclose(self) -> None:
        with anyio.CancelScope(shield=True):  # no network wait: TLS is closed without a notify
            await self.stream.aclose()


class Connections:
    """Free connections per (event loop, origin)."""

    def __init__(self) -> None:
        self._free: dict[tuple[object, bool, str, int], list[_Connection]] = {}
        self._tls: ssl.SSLContext | None = None
        self._origins: dict[str, Origin] = {}

    def _context(self) -> ssl.SSLContext:
        if self._tls is None:
            import ssl

            import certifi

            context = ssl.create_default_context(cafile=certifi.where())
            context.set_alpn_protocols(["http/1.1"])
            self._tls = context
        return self._tls

    async def _connect(self, origin: Origin, url: str, timeout: float) -> _Connection:
        try:
            with anyio.fail_after(timeout):
                if origin.tls:
                    stream: Any = await anyio.connect_tcp(
                        origin.host, origin.port, ssl_context=self._context(),
                        tls_hostname=origin.host, tls_standard_compatible=False)
                elif origin.address:
                    stream = await _tcp_to_address(origin.host, origin.port)
                else:
                    stream = await anyio.connect_tcp(origin.host, origin.port)
        except TimeoutError as e:
            raise ProviderError("unreachable", f"unreachable: {shown_url(url)} (connect "
                                "timed out)") from e
        except (OSError, anyio.BrokenResourceError) as e:  # refused, no host, TLS refused
            # never delivered, whatever the cause: a failed TLS handshake sent no request
            raise unreachable(url, e) or ProviderError(
                "unreachable", f"unreachable: {shown_url(url)} (could not connect: "
                f"{type(e).__name__}: {e.__cause__ or e})"[:300]) from e
        from anyio.abc import SocketAttribute

        raw = stream.extra(SocketAttribute.raw_socket, None)
        return _Connection(stream, raw)

    async def post(self, base: str, path: str, headers: Headers, content: bytes,
                   timeout: float, sent: Callable[[], None] | None = None) -> HttpAnswer:
        """POST `content` to `base + path` on a kept connection of its origin (a new one if
        none is free): connecting and then the exchange each within `timeout` seconds. Errors
        name `base`."""
        import anyio.lowlevel
        import h11

        url = base + path
        origin = self._origins.get(url) or self._origins.setdefault(url, Origin.of(url))
        try:  # h11 checks the head here, before any connection: a key with a newline fails
            request = h11.Request(method=b"POST", target=origin.target, headers=[
                *headers, (b"Content-Length", str(len(content)).encode())])
        except h11.LocalProtocolError as e:
            raise unformed(e) or ProviderError("client", "the request could not be sent",
                                               unsent=True) from e
        key = (anyio.lowlevel.current_token(), origin.tls, origin.host, origin.port)
        free = self._free.setdefault(key, [])
        conn = None
        while free and conn is None:
            old = free.pop()
            if old.reusable():
                conn = old
            else:
                await old.aclose()
        if conn is None:
            conn = await self._connect(origin, base, timeout)
        kept = False
        try:
            with anyio.fail_after(timeout):
                answer = await conn.exchange(request, content, sent)
            kept = conn.state.our_state is h11.IDLE
        except TimeoutError as e:
            raise ProviderError("timeout", "timeout") from e
        except (OSError, anyio.BrokenResourceError, anyio.ClosedResourceError,
                h11.ProtocolError) as e:
            raise ProviderError("transport", f"{type(e).__name__}: {e}"[:300]) from e
        finally:
            if kept:
                free.append(conn)
            else:
                await conn.aclose()
        return answer

    async def aclose(self) -> None:
        """Close the connections of the current event loop (the others close with their loops)."""
        import anyio.lowlevel

        token = anyio.lowlevel.current_token()
        for key in [k for k in self._free if k[0] == token]:
            for conn in self._free.pop(key):
                await conn.aclose()
