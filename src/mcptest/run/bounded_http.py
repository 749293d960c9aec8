"""`max_result_bytes` for HTTP servers, enforced while the answer streams in (docs/suites.md,
"Answers too large"): an httpx client whose responses are bounded before the MCP SDK reads them.

The SDK reads a JSON answer whole (`aread`) and buffers each server-sent event whole, so an
800 MB answer would be 800 MB in memory before anything could measure it. Here every response
body passes through a bound first:

- a JSON (or any other non-event-stream) body is collected up to the bound; past it (or when
  its Content-Length already says so) the rest is never read, and the body handed on is a
  JSON-RPC error (`TOO_LARGE`, as `bounded_stdio` makes for stdio) for the request's id, so the
  call fails at once with the size and the connection stays usable;
- an event stream is cut into events; an event past the bound is skipped as it streams in and
  replaced by one event carrying that error, for the id named in its first bytes or else the
  request's (a legacy SSE stream carries every answer, so it must go on); comment lines
  (keep-alives) are dropped, and line endings are normalised to `\\n` so the SDK sees exactly
  the events counted here.

Bodies are asked for uncompressed (`Accept-Encoding: identity`); a gzip or deflate body sent
anyway is inflated here, in bounded steps, and any other encoding is refused.
"""

from __future__ import annotations

import json
import zlib
from typing import TYPE_CHECKING, Any

import httpx2

from mcptest.errors import McpTestError
from mcptest.run.bounded_stdio import HEAD_BYTES, answer_id, too_large_json, too_large_text
from mcptest.run.sse_bound import SseBound

if TYPE_CHECKING:
    from collections.abc import AsyncGenerator, AsyncIterator

NO_COMPRESSION = {"Accept-Encoding": "identity"}
_STEP = 65536


class AnswerTooLarge(McpTestError, httpx2.StreamError):
    """A body past the bound with no request id to answer: the SDK's parse-failure path."""


def _request_id(request: httpx2.Request) -> int | str | None:
    """The id of the JSON-RPC request this HTTP request carries (None for a GET or a
    notification)."""
    if request.method != "POST":
        return None
    try:
        body = json.loads(request.content)
    except (ValueError, httpx2.RequestNotRead):
        return None
    msg_id = body.get("id") if isinstance(body, dict) and "method" in body else None
    return msg_id if isinstance(msg_id, int | str) and not isinstance(msg_id, bool) else None


async def _inflated(source: AsyncIterator[bytes], encoding: str) -> AsyncGenerator[bytes, None]:
    """The body decoded in steps of at most 64 KiB of output (a zip bomb stays a stream)."""
    if encoding in ("", "identity"):
        async for part in source:
            yield part
        return
    if encoding not in ("gzip", "x-gzip", "deflate"):
        raise httpx2.DecodingError(f"Content-Encoding {encoding!r} was not asked for "
                                   "(mcptest asks for identity)")
    inflater: Any = None
    async for part in source:
        if inflater is None:  # deflate is zlib-wrapped, or raw as some servers send it
            wbits = 16 + zlib.MAX_WBITS if encoding != "deflate" else (
                zlib.MAX_WBITS if part[:1] == b"\x78" else -zlib.MAX_WBITS)
            inflater = zlib.decompressobj(wbits)
        data = part
        while data:
            try:
                out = inflater.decompress(data, _STEP)
            except zlib.error as e:
                raise httpx2.DecodingError(f"the {encoding} body does not inflate: {e}") from None
            data = inflater.unconsumed_tail
            if out:
                yield out


async def _bounded_body(source: AsyncIterator[bytes], limit: int, declared: int | None,
                        msg_id: int | str | None) -> AsyncGenerator[bytes, None]:
    if declared is not None and declared > limit:
        size = f"{declared:,}"
    else:
        size = ""
        buffer = bytearray()
        async for part in source:
            buffer += part
            if len(buffer) > limit:
                size = f"more than {limit:,}"
                msg_id = msg_id if msg_id is not None else answer_id(bytes(buffer[:HEAD_BYTES]))
                break
        if not size:
            yield bytes(buffer)
            return
    if msg_id is None:
        raise AnswerTooLarge(too_large_text(size, limit))
    yield too_large_json(msg_id, size, limit)


async def _bounded_events(source: AsyncIterator[bytes], limit: int,
                          msg_id: int | str | None) -> AsyncGenerator[bytes, None]:
    bound = SseBound(limit, msg_id)
    async for part in source:
        out = bound.feed(part)
        if out:
            yield out
    tail = bound.end()
    if tail:
        yield tail


class _Body(httpx2.AsyncByteStream):
    def __init__(self, inner: httpx2.AsyncByteStream, chunks: AsyncGenerator[bytes, None]) -> None:
        self._inner = inner
        self._chunks = chunks

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self._chunks:
            yield part

    async def aclose(self) -> None:
        await self._chunks.aclose()
        await self._inner.aclose()


def bound(response: httpx2.Response, limit: int) -> None:
    """Put the bound between `response` (not read yet) and whoever reads it."""
    stream = response.stream
    assert isinstance(stream, httpx2.AsyncByteStream)
    encoding = response.headers.pop("content-encoding", "").strip().lower()
    declared = response.headers.get("content-length", "")
    source = _inflated(stream.__aiter__(), encoding)
    msg_id = _request_id(response.request)
    kind = response.headers.get("content-type", "").partition(";")[0].strip().lower()
    if kind == "text/event-stream":
        chunks = _bounded_events(source, limit, msg_id)
    else:
        size = int(declared) if declared.isdigit() and not encoding else None
        chunks = _bounded_body(source, limit, size, msg_id)
    response.stream = _Body(stream, chunks)


class BoundedClient(httpx2.AsyncClient):
    """httpx's client with every response body bounded to `limit` bytes as it streams in (the
    client's own transports, proxies from the environment included, stay as they are)."""

    def __init__(self, limit: int, **kwargs: Any) -> None:
        headers = {**NO_COMPRESSION, **dict(kwargs.pop("headers", None) or {})}
        super().__init__(headers=headers, **kwargs)
        self.limit = limit

    async def send(self, request: httpx2.Request, *, stream: bool = False,
                   auth: Any = httpx2.USE_CLIENT_DEFAULT,
                   follow_redirects: Any = httpx2.USE_CLIENT_DEFAULT) -> httpx2.Response:
        response = await super().send(request, stream=True, auth=auth,
                                      follow_redirects=follow_redirects)
        bound(response, self.limit)
        if not stream:
            try:
                await response.aread()
            except BaseException:
                await response.aclose()
                raise
        return response
