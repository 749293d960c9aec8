"""Real MCP servers for tests: the bundled example server (stdio, Streamable HTTP, SSE) and
third-party reference servers of both protocol eras (npm server-everything, PyPI
mcp-server-time).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from mcptest.suite.models import StdioServer
from support.tools import missing, node_modules

REPO = Path(__file__).resolve().parents[2]
EXAMPLE_SERVER = REPO / "examples" / "server" / "example_server.py"
EVERYTHING_PACKAGE = "@modelcontextprotocol/server-everything"
RAW_SERVER = REPO / "tests" / "run" / "raw_server.py"
SUPPORT = Path(__file__).resolve().parent
CLIENT_SERVER = SUPPORT / "client_server.py"
"""Asks its client for input: InputRequiredResult on 2026-07-28, pushed on the handshake."""
TASK_SERVER = SUPPORT / "task_server.py"
"""A task-capable stand-in (the tasks extension)."""
CARELESS_SERVER = SUPPORT / "careless_server.py"
"""A 2026-07-28 server that trusts any requestState."""
HTTP_TOKEN = "tok-3f9a2c71d8e4"  # what the session-wide HTTP example server requires


def example_command() -> list[str]:
    """argv of the example server over stdio."""
    return [sys.executable, str(EXAMPLE_SERVER)]


def raw_server(mode: str, **fields: object) -> StdioServer:
    """The hand-rolled server of tests/run/raw_server.py in one of its modes."""
    return StdioServer.model_validate({"command": [sys.executable, str(RAW_SERVER), mode], **fields})


def free_port() -> int:
    """A TCP port nothing listens on right now (the kernel picks it)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Poll until something accepts on 127.0.0.1:port; fail early if the process died."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
            raise RuntimeError(f"server exited with {proc.returncode} before listening: {err}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)  # polling a port: there is nothing to await
    raise TimeoutError(f"nothing listened on 127.0.0.1:{port} within {timeout}s")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Stop a server we started, by its pid: SIGTERM, then SIGKILL after 5 s."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@dataclass(frozen=True)
class HttpServer:
    url: str
    token: str | None
    pid: int


@contextmanager
def example_http_server(*, sse: bool = False, token: str | None = None) -> Iterator[HttpServer]:
    """Run the example server over Streamable HTTP (or SSE) on a free loopback port."""
    port = free_port()
    argv = [*example_command(), "--sse" if sse else "--http", "--port", str(port)]
    if token:
        argv += ["--token", token]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        wait_for_port(port, proc)
        path = "/sse" if sse else "/mcp"
        yield HttpServer(url=f"http://127.0.0.1:{port}{path}", token=token, pid=proc.pid)
    finally:
        stop(proc)
        if proc.stderr:
            proc.stderr.close()


SHARED_EXAMPLE_URL = "MCPTEST_TEST_EXAMPLE_URL"
"""The environment variable naming the test process's shared example server (`shared_example`)."""


def shared_example() -> tuple[subprocess.Popen[bytes], str]:
    """The example server over Streamable HTTP for a whole test process (tests/conftest.py
    starts it and stops it), and its URL; not yet waited for: `wait_for_port` before first
    use. A suite on it opens a fresh session per run and per repetition, as over stdio, without
    an interpreter start and the MCP SDK's imports each time (~0.6 s of CPU)."""
    port = free_port()
    proc = subprocess.Popen([*example_command(), "--http", "--port", str(port)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, f"http://127.0.0.1:{port}/mcp"


def everything_command() -> list[str]:
    """argv of npm server-everything over stdio (prepared by .ci/prepare-tools.sh)."""
    modules = node_modules(EVERYTHING_PACKAGE)
    if shutil.which("node") is None:
        missing("node")
    return [str(modules / ".bin" / "mcp-server-everything"), "stdio"]


def time_server_command() -> list[str]:
    """argv of PyPI mcp-server-time (a `dev` extra), pinned to UTC."""
    exe = Path(sys.executable).parent / "mcp-server-time"
    if not exe.exists():
        found = shutil.which("mcp-server-time")
        if found is None:
            pytest.fail("mcp-server-time is missing: pip install -e '.[dev]'")
        exe = Path(found)
    return [str(exe), "--local-timezone", "UTC"]


def process_env() -> dict[str, str]:
    """The environment handed to ServerConnection in tests: ours, minus nothing."""
    return dict(os.environ)
