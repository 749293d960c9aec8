"""The fast route's HTTP/1.1 connections (`llm/connections.py`) against a loopback server that
behaves as servers do between and around answers: closes an idle connection, answers in
chunks, closes without answering."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import anyio
import pytest

from mcptest.errors import ProviderError
from mcptest.llm.connections import Connections, HttpAnswer

Reply = Callable[[int], bytes | None]
"""What the server writes for its n-th request on a connection (None: closes instead)."""


def plain(body: bytes, *, close: bool = False) -> Reply:
    head = b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n" % len(body)
    return lambda n: head + body if not close else None


@asynccontextmanager
async def server(reply: Reply, *, close_after: int | None = None,
                 seen: list[str] | None = None) -> AsyncIterator[str]:
    """A loopback HTTP server; `close_after` answers per connection, then it closes it (with no
    `Connection: close`: as a server whose keep-alive expired does)."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        n = 0
        if seen is not None:
            seen.append("connection")
        try:
            while close_after is None or n < close_after:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length"))
                await reader.readexactly(length)
                n += 1
                if seen is not None:
                    seen.append("request")
                out = reply(n)
                if out is None:
                    break
                writer.write(out)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    srv = await asyncio.start_server(handle, "127.0.0.1", 0)
    try:
        yield f"http://127.0.0.1:{srv.sockets[0].getsockname()[1]}"
    finally:
        srv.close()


HOST = [(b"Host", b"judge")]
PATH = "/v1/chat/completions"


def test_a_connection_the_server_closed_while_idle_is_not_reused() -> None:
    seen: list[str] = []

    async def main() -> list[int]:
        async with server(plain(b"{}"), close_after=1, seen=seen) as base:
            pool = Connections()
            first = await pool.post(base, PATH, HOST, b"{}", 5)
            await anyio.sleep(0.05)  # the server's close reaches the client's socket
            second = await pool.post(base, PATH, HOST, b"{}", 5)
            await pool.aclose()
            return [first.status, second.status]

    assert anyio.run(main) == [200, 200]
    assert seen == ["connection", "request", "connection", "request"]  # no failed resend


def test_answers_reuse_one_connection_and_chunked_answers_are_read_whole() -> None:
    chunked = (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-Id: 7\r\n\r\n"
               b"3\r\n{\"a\r\n5\r\n\": 1}\r\n0\r\n\r\n")
    seen: list[str] = []

    async def main() -> list[HttpAnswer]:
        async with server(lambda n: chunked, seen=seen) as base:
            pool = Connections()
            answers = [await pool.post(base, PATH, HOST, b"{}", 5) for _ in range(3)]
            await pool.aclose()
            return answers

    answers = anyio.run(main)
    assert [a.content for a in answers] == [b'{"a": 1}'] * 3
    assert answers[0].header("x-id") == "7" and answers[0].header("X-ID") == "7"
    assert seen.count("connection") == 1 and seen.count("request") == 3


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost"])
def test_an_address_and_a_host_name_both_connect(host: str) -> None:
    """An IPv4 address is connected directly, a name through anyio's lookup: same answer."""

    async def main() -> bytes:
        async with server(plain(b'{"ok": 1}')) as base:
            pool = Connections()
            answer = await pool.post(base.replace("127.0.0.1", host), PATH, HOST, b"{}", 5)
            await pool.aclose()
            return answer.content

    assert anyio.run(main) == b'{"ok": 1}'


def test_an_address_connection_sends_without_delay() -> None:
    """Like `anyio.connect_tcp`'s sockets, a directly connected one has TCP_NODELAY: a request
    larger than a segment is not held back waiting for the judge's delayed ack (Nagle)."""
    import socket

    from anyio.abc import SocketAttribute

    from mcptest.llm.connections import _tcp_to_address

    async def main() -> int:
        async with server(plain(b"{}")) as base:
            stream = await _tcp_to_address("127.0.0.1", int(base.rsplit(":", 1)[1]))
            try:
                raw = stream.extra(SocketAttribute.raw_socket)
                return int(raw.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            finally:
                await stream.aclose()

    assert anyio.run(main) != 0


def _failure(reply: Reply, timeout: float = 5, *, gone: bool = False) -> ProviderError:
    """How one POST fails against a server answering `reply` (`gone`: once it has closed)."""

    async def main() -> None:
        async with server(reply) as base:
            if not gone:
                await Connections().post(base, PATH, HOST, b"{}", timeout)
        await Connections().post(base, PATH, HOST, b"{}", timeout)  # a failure keeps nothing

    with pytest.raises(ProviderError) as e:
        anyio.run(main)
    return e.value


def test_a_server_that_closes_without_answering_is_a_transport_failure() -> None:
    assert _failure(plain(b"", close=True)).kind == "transport"


def test_a_refused_connection_was_never_sent() -> None:
    e = _failure(plain(b"{}"), gone=True)
    assert e.kind == "unreachable" and "connection refused" in str(e)


def test_an_answer_slower_than_the_timeout_times_out() -> None:
    async def main() -> None:
        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                await reader.read()  # reads the request, never answers
            finally:
                writer.close()

        srv = await asyncio.start_server(silent, "127.0.0.1", 0)
        try:
            base = f"http://127.0.0.1:{srv.sockets[0].getsockname()[1]}"
            await Connections().post(base, PATH, HOST, b"{}", 0.2)
        finally:
            srv.close()

    with pytest.raises(ProviderError) as e:
        anyio.run(main)
    assert e.value.kind == "timeout"


@pytest.mark.parametrize("base", ["ftp://judge/v1", "http:///v1", "http://judge:99999/v1"])
def test_a_base_url_no_request_can_go_to_is_the_client_s_error(base: str) -> None:
    async def main() -> None:
        await Connections().post(base, "/chat/completions", HOST, b"{}", 5)

    with pytest.raises(ProviderError) as e:
        anyio.run(main)
    assert e.value.kind == "client" and "base URL" in str(e.value)
