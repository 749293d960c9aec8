"""`pytest examples/`: what demo.sh prepares for `mcptest run`, prepared for pytest.

mcptest's pytest plugin collects the suites (pytest.ini); this file only sets what they read
from the environment before they are collected: the example server's interpreter (this one, which
has the `mcp` package), a free port for start.yml, and, for http.yml, the example server over
Streamable HTTP with a throwaway bearer token, stopped when the session ends. A reader who
started that server already (server/serve_http.sh, with MCPTEST_EXAMPLE_PORT set) keeps it.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

SERVER = Path(__file__).parent / "server" / "example_server.py"
READY_S = 30.0


def _free_port() -> str:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return str(s.getsockname()[1])


def _listening(port: str) -> bool:
    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", int(port))) == 0


def pytest_configure(config: pytest.Config) -> None:
    os.environ.setdefault("MCPTEST_PYTHON", sys.executable)
    os.environ.setdefault("MCPTEST_START_PORT", _free_port())
    if "MCPTEST_EXAMPLE_PORT" in os.environ:
        return
    port, token = _free_port(), f"demo-{secrets.token_hex(8)}"
    os.environ.update(MCPTEST_EXAMPLE_PORT=port, MCPTEST_EXAMPLE_TOKEN=token)
    server = subprocess.Popen([sys.executable, str(SERVER), "--http", f"--port={port}",
                               f"--token={token}"], stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def stop() -> None:
        server.terminate()
        server.wait(timeout=10)

    config.add_cleanup(stop)
    deadline = time.monotonic() + READY_S
    while not _listening(port):  # a port cannot be awaited: poll it, as serve_http.sh does
        if server.poll() is not None or time.monotonic() > deadline:
            raise pytest.UsageError(f"the HTTP example server did not listen on port {port}")
        time.sleep(0.05)
