"""Fixtures for the connection-layer tests: real servers started once per session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from support.servers import (
    HTTP_TOKEN,
    HttpServer,
    everything_command,
    example_command,
    example_http_server,
    time_server_command,
)

from mcptest.suite.models import StdioServer


@pytest.fixture
def example_stdio() -> StdioServer:
    return StdioServer(command=example_command())


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
