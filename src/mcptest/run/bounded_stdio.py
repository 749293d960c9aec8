"""A stdio transport whose reader is linear in the bytes a server writes, with a line bound.

The SDK's stdio reader re-joins its buffer with every 64 KiB chunk, so one 50 MB line costs
tens of seconds and holds up the next call on that server as long (issue 16). Servers get the
same process handling as the SDK's `stdio_client` (own process group and the SDK's environment
rules: `run/stdio_spawn.py`; close stdin → SIGTERM → SIGKILL on the way out), but lines are split
in bytes, and a line longer than `max_line_bytes` is skipped as it streams in. Its request gets
a JSON-RPC error (`TOO_LARGE`) when the line's first bytes name its `id`, so the call fails at
once with the size and the connection stays usable (docs/suites.md, `max_result_bytes`).
"""

from __future__ import annotations

import json
import re
from contextlib import asynccontextmanager, suppress
from typing import IO, TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.os.posix.utilities import terminate_posix_process_tree
from mcp.shared.message import SessionMessage

from mcptest.run.stdio_spawn import exited, spawn

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from mcptest.run.stdio_spawn import EarlyServer, StdioPlan

TOO_LARGE = -32090
"""Error code of the stand-in answer for a line past the bound (implementation-defined range)."""
TOO_LARGE_PREFIX = "mcptest: answer of "
HEAD_BYTES = 4096
_ID = re.compile(rb'^\s*\{.{0,512}?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.){0,256}")', re.DOTALL)
_EXIT_GRACE_S = 2.0
_KILL_GRACE_S = 2.0
_FLUSH_S = 0.5


def _parse(line: bytes) -> SessionMessage | Exception:
    text = line.decode("utf-8", errors="replace")  # bad bytes make the line invalid, not fatal
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(text, by_name=False))
    except ValueError as exc:  # pydantic's ValidationError: the session reports it as noise
        return exc


def too_large_text(size: str, limit: int) -> str:
    """The stand-in error's message; `size` is `1,234` or `more than 1,234` (streamed HTTP)."""
    return f"{TOO_LARGE_PREFIX}{size} bytes is over the {limit:,}-byte bound"


def too_large_json(msg_id: int | str, size: str, limit: int) -> bytes:
    """The stand-in error as the JSON-RPC message an HTTP body or event carries."""
    error = types.ErrorData(code=TOO_LARGE, message=too_large_text(size, limit))
    message = types.JSONRPCError(jsonrpc="2.0", id=msg_id, error=error)
    return message.model_dump_json(by_alias=True, exclude_none=True).encode()


def answer_id(head: bytes) -> int | str | None:
    """The JSON-RPC `id` named in the first bytes of a message too large to parse, if any."""
    match = _ID.match(head)
    if match is None:
        return None
    msg_id: int | str = json.loads(match.group(1))
    return msg_id


def _too_large(head: bytes, size: int, limit: int) -> SessionMessage | Exception:
    msg_id = answer_id(head)
    if msg_id is None:
        return ValueError(f"a line of {size:,} bytes (over the {limit:,}-byte bound) without "
                          f"a readable id: {head[:80]!r}")
    error = types.ErrorData(code=TOO_LARGE, message=too_large_text(f"{size:,}", limit))
    return SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=msg_id, error=error))


class _Lines:
    """Splits a byte stream into lines; a line over `limit` is counted, not kept."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.buffer = bytearray()
        self.head: bytes | None = None  # set while skipping an oversized line
        self.skipped = 0

    def feed(self, chunk: bytes) -> list[SessionMessage | Exception]:
        out: list[SessionMessage | Exception] = []
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            piece = chunk[start:] if end < 0 else chunk[start:end]
            if self.head is not None:
                self.skipped += len(piece)
            else:
                self.buffer += piece
                if len(self.buffer) > self.limit:
                    self.head, self.skipped = bytes(self.buffer[:HEAD_BYTES]), len(self.buffer)
                    self.buffer = bytearray()
            if end < 0:
                return out
            if self.head is not None:
                out.append(_too_large(self.head, self.skipped, self.limit))
                self.head, self.skipped = None, 0
            elif self.buffer.strip():
                out.append(_parse(bytes(self.buffer)))
            self.buffer = bytearray()
            start = end + 1


@asynccontextmanager
async def bounded_stdio_client(
    plan: StdioPlan, errlog: IO[Any], max_line_bytes: int, early: EarlyServer | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    """Spawn the server, or take over the process started `early`; yield the (read, write)
    stream pair `ClientSession` takes."""
    if early is not None:
        early.adopted = True
        process = early.process
    else:
        process = await spawn(plan, errlog)
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()
    assert process.stdout is not None and process.stdin is not None
    stdout, stdin = process.stdout, process.stdin

    async def read_stdout() -> None:
        lines = _Lines(max_line_bytes)
        with suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError,
                      OSError):
            async with read_writer:
                try:
                    while True:
                        for message in lines.feed(await stdout.receive(65536)):
                            await read_writer.send(message)
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    pass  # the session is gone: keep draining so the server can exit
            while True:
                await stdout.receive(65536)

    async def write_stdin() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    data = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send((data + "\n").encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # the session sees the end instead of waiting forever
        finally:
            writer_done.set()

    async def stop() -> None:
        read_stream.close()
        write_stream.close()
        with anyio.move_on_after(_FLUSH_S):
            await writer_done.wait()
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stdin.aclose()
        if not await exited(process, _EXIT_GRACE_S):
            await terminate_posix_process_tree(process, _KILL_GRACE_S)
            await exited(process, _KILL_GRACE_S)
        with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
            await stdout.aclose()

    async with anyio.create_task_group() as tg:
        tg.start_soon(read_stdout)
        tg.start_soon(write_stdin)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):
                await stop()
            tg.cancel_scope.cancel()
