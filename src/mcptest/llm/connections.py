"""The fast route's keep-alive connections: one single-connection httpcore pool per request in
flight, reused from a free list.

httpcore is httpx's own transport, used directly: the route sends one request shape and reads
one answer shape, so httpx's request and response models, URL parsing, auth and cookie flows
cost CPU on every call and an import at start for nothing (docs/judges.md, "Which HTTP
client"). One pool of N
connections looks at every connection each time a request starts or ends (idle and expiry
checks, a socket probe each); the run's `JudgePool` already bounds the requests in flight, so a
free list of pools that hold one connection each does the same job in constant time. Pools are
bound to the event loop that made them, and kept per scheme: the plain-HTTP ones (a local
gateway) never negotiate TLS, so they load no CA bundle; the https ones share one TLS context
(certifi's bundle, loaded once). No proxy and no redirects, as before.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl
    from collections.abc import AsyncIterator

    import httpcore

KEEPALIVE_S = 30.0


class Connections:
    """Free single-connection pools per (event loop, TLS or not)."""

    def __init__(self) -> None:
        self._free: dict[tuple[object, bool], list[httpcore.AsyncConnectionPool]] = {}
        self._tls: ssl.SSLContext | None = None

    def _new(self, tls: bool) -> httpcore.AsyncConnectionPool:
        import httpcore

        if tls and self._tls is None:
            import ssl

            import certifi

            self._tls = ssl.create_default_context(cafile=certifi.where())
        return httpcore.AsyncConnectionPool(ssl_context=self._tls if tls else None,
                                            max_connections=1, max_keepalive_connections=1,
                                            keepalive_expiry=KEEPALIVE_S)

    @asynccontextmanager
    async def client(self, url: str) -> AsyncIterator[httpcore.AsyncConnectionPool]:
        """A pool of this loop for `url`'s scheme, to itself until the block ends."""
        import anyio.lowlevel

        tls = not url.lower().startswith("http://")
        free = self._free.setdefault((anyio.lowlevel.current_token(), tls), [])
        pool = free.pop() if free else self._new(tls)
        try:
            yield pool
        finally:
            free.append(pool)

    async def aclose(self) -> None:
        """Close the pools of the current event loop (the others close with their loops)."""
        import anyio.lowlevel

        token = anyio.lowlevel.current_token()
        for tls in (False, True):
            for pool in self._free.pop((token, tls), []):
                await pool.aclose()
