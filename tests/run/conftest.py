"""Fixtures for the connection-layer tests: real servers started once per session."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.servers import (
    HttpServer,
    everything_command,
    example_command,
    example_http_server,
    time_server_command,
)

from mcptest.suite.models import StdioServer

RAW_SERVER = Path(__file__).with_name("raw_server.py")
HTTP_TOKEN = "tok-3f9a2c71d8e4"


@pytest.fixture
def example_stdio() -> StdioServer:
    return StdioServer(command=example_command())


def raw_server(mode: str, **fields: object) -> StdioServer:
    """The hand-rolled server of raw_server.py in one of its modes."""
    return StdioServer.model_validate({"command": [sys.executable, str(RAW_SERVER), mode], **fields})


@pytest.fixture(scope="session")
def example_http() -> Iterator[HttpServer]:
    """The example server over Streamable HTTP, requiring HTTP_TOKEN as bearer token."""
    with example_http_server(token=HTTP_TOKEN) as server:
        yield server


@pytest.fixture(scope="session")
def example_sse() -> Iterator[HttpServer]:
    with example_http_server(sse=True) as server:
        yield server


@pytest.fixture(scope="session")
def everything() -> StdioServer:
    return StdioServer(command=everything_command())


@pytest.fixture(scope="session")
def time_server() -> StdioServer:
    return StdioServer(command=time_server_command())
