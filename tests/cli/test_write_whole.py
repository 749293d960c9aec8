"""`cli/output.py` `write_whole`: a report reaches its reader whole through a pipe that
takes it in pieces (a non-blocking one here: each full pipe is a short write or none)."""

from __future__ import annotations

import io
import os
import sys
import threading

import pytest

from mcptest.cli.output import write_whole

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX pipes")


@pytest.mark.parametrize("buffering", [0, io.DEFAULT_BUFFER_SIZE], ids=["unbuffered", "buffered"])
def test_a_non_blocking_pipe_gets_every_byte_in_order(buffering: int) -> None:
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    text = "".join(f"row {i:06d} ✓\n" for i in range(60_000))  # ~0.8 MB, 12x a pipe
    got: list[bytes] = []

    def reader() -> None:
        while chunk := os.read(read_end, 65536):
            got.append(chunk)

    thread = threading.Thread(target=reader)
    thread.start()
    binary = open(write_end, "wb", buffering=buffering)  # noqa: SIM115 - closed below
    out = io.TextIOWrapper(binary, encoding="utf-8")
    try:
        write_whole(text, out)
    finally:
        out.close()
        thread.join(timeout=60)
        os.close(read_end)
    assert b"".join(got).decode("utf-8") == text
