"""The example server ends its process itself once its client closes stdin (`_exit_now`:
the interpreter's teardown skipped, the client waits for the exit): it exits 0, says nothing
more on stdout or stderr, and loses nothing it wrote before (what is still in flight when stdin
closes is the SDK's to drop, with or without `_exit_now`)."""

from __future__ import annotations

import json
import sys
from typing import Any

import anyio
from support.cli_run import SERVER

CALLS = 20


def _line(message: dict[str, object]) -> bytes:
    return (json.dumps(message) + "\n").encode()


async def _exchange() -> tuple[list[dict[str, Any]], int | None, bytes, bytes]:
    """Initialize, call `add` CALLS times and read every answer; then close stdin and read what
    else the server says until it exits (within 60 s, else it is killed and the test fails)."""
    async with await anyio.open_process([sys.executable, str(SERVER)]) as p:
        assert p.stdin is not None and p.stdout is not None and p.stderr is not None
        buffered = b""

        async def read_line() -> bytes:
            nonlocal buffered
            assert p.stdout is not None
            while b"\n" not in buffered:
                buffered += await p.stdout.receive()
            line, _, buffered = buffered.partition(b"\n")
            return line

        with anyio.fail_after(60):
            await p.stdin.send(_line({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                      "params": {"protocolVersion": "2025-11-25",
                                                 "capabilities": {},
                                                 "clientInfo": {"name": "t", "version": "1"}}}))
            assert json.loads(await read_line())["id"] == 0
            await p.stdin.send(_line({"jsonrpc": "2.0", "method": "notifications/initialized"}))
            for i in range(1, CALLS + 1):
                await p.stdin.send(_line({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                                          "params": {"name": "add",
                                                     "arguments": {"a": i, "b": 1}}}))
            answers = [json.loads(await read_line()) for _ in range(CALLS)]
            await p.stdin.aclose()
            rest, err = buffered, b""
            async for chunk in p.stdout:
                rest += chunk
            async for chunk in p.stderr:
                err += chunk
            code = await p.wait()
        return answers, code, rest, err


def test_after_stdin_closes_the_exit_is_clean_and_loses_nothing_written() -> None:
    answers, code, rest, err = anyio.run(_exchange)
    assert sorted(a["id"] for a in answers) == list(range(1, CALLS + 1))
    assert all(a["result"]["structuredContent"] == {"result": a["id"] + 1} for a in answers)
    assert (code, rest, err) == (0, b"", b"")
