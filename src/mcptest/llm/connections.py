"""The fast route's keep-alive connections: one single-connection httpx client per request in
flight, reused from a free list.

One httpx client with a pool of N connections looks at every connection of the pool each time a
request starts or ends (idle and expiry checks, a socket probe each), so at the judge
concurrency of 20 a third of the CPU of a call went to the pool's bookkeeping (docs/judges.md,
"Speed"). The run's `JudgePool` already bounds the requests in flight, so a free list of clients
that hold one connection each does the same job in constant time. Clients are bound to the event
loop that made them, and kept per scheme: the plain-HTTP ones (a local gateway) never negotiate
TLS (they send only http:// URLs, follow no redirects, use no proxy), so they load no CA bundle;
the https ones share one TLS context (the CA bundle loads once, not once per connection).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import ssl

    import httpx

KEEPALIVE_S = 30.0


class Connections:
    """Free single-connection clients per (event loop, TLS or not)."""

    def __init__(self) -> None:
        self._free: dict[tuple[object, bool], list[httpx.AsyncClient]] = {}
        self._tls: ssl.SSLContext | None = None

    def _new(self, tls: bool) -> httpx.AsyncClient:
        import httpx

        verify: ssl.SSLContext | bool = False
        if tls:
            if self._tls is None:
                self._tls = httpx.create_ssl_context(trust_env=False)
            verify = self._tls
        limits = httpx.Limits(max_connections=1, max_keepalive_connections=1,
                              keepalive_expiry=KEEPALIVE_S)
        return httpx.AsyncClient(limits=limits, trust_env=False, verify=verify)

    @asynccontextmanager
    async def client(self, url: str) -> AsyncIterator[httpx.AsyncClient]:
        """A client of this loop for `url`'s scheme, to itself until the block ends."""
        import anyio.lowlevel

        tls = not url.lower().startswith("http://")
        free = self._free.setdefault((anyio.lowlevel.current_token(), tls), [])
        client = free.pop() if free else self._new(tls)
        try:
            yield client
        finally:
            free.append(client)

    async def aclose(self) -> None:
        """Close the clients of the current event loop (the others close with their loops)."""
        import anyio.lowlevel

        token = anyio.lowlevel.current_token()
        for tls in (False, True):
            for client in self._free.pop((token, tls), []):
                await client.aclose()
