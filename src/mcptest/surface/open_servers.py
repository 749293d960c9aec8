"""Open a suite's servers for the keyless commands (`surface snapshot`, `lint`) and read their
surface: tools from the connection's own listing, then resources, templates and prompts.

A server that never becomes ready is reported, not raised, so the other servers still get
checked; the commands turn it into exit code 3 (docs/lint.md).
"""

from __future__ import annotations

from contextlib import AsyncExitStack, asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcptest.errors import ServerNotReadyError
from mcptest.report.models import ServerReport
from mcptest.run.client_config import client_config
from mcptest.run.listing import list_all
from mcptest.run.requests import LIST_KEYS
from mcptest.run.session import ServerConnection
from mcptest.run.wire import WireLog
from mcptest.suite.models import StdioServer

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping

    from mcptest.suite.load import LoadedSuite
    from mcptest.suite.models.surface_cases import ListMethod

LIST_TIMEOUT_S = 30.0
EXTRA_LISTS: tuple[ListMethod, ...] = ("resources/list", "resources/templates/list",
                                       "prompts/list")


@dataclass
class OpenServers:
    """The ready connections of one suite, and what went wrong with the others."""

    ready: dict[str, ServerConnection] = field(default_factory=dict)
    failed: dict[str, str] = field(default_factory=dict)
    wires: dict[str, WireLog] = field(default_factory=dict)

    def reports(self, loaded: LoadedSuite) -> list[ServerReport]:
        out: list[ServerReport] = []
        for name, spec in loaded.suite.servers.items():
            transport: Any = "stdio" if isinstance(spec, StdioServer) else spec.transport
            conn = self.ready.get(name)
            if conn is not None:
                out.append(ServerReport(
                    name=name, suite_file=loaded.display_path, transport=transport,
                    status="ready", protocol_version=conn.protocol_version,
                    server_name=conn.server_name, server_version=conn.server_version,
                    startup_ms=round(conn.startup_ms, 1),
                    tools=[str(t.get("name")) for t in conn.tools]))
            elif name in self.failed:
                out.append(ServerReport(name=name, suite_file=loaded.display_path,
                                        transport=transport, status="failed",
                                        error=self.failed[name]))
        return out


@asynccontextmanager
async def open_servers(
    loaded: LoadedSuite, names: list[str], env: Mapping[str, str], *, tap: bool = False,
    capabilities: frozenset[str] | None = None,
) -> AsyncIterator[OpenServers]:
    """Connect to each named server of `loaded`; with `tap`, record their wire traffic. The
    client declares what the suite's tests declare, or `capabilities` when given."""
    found = OpenServers()
    async with AsyncExitStack() as stack:
        for name in names:
            wire = WireLog() if tap else None
            try:
                client = client_config(loaded.suite, name, loaded.path.parent)
                if capabilities is not None:
                    client = client.with_capabilities(capabilities)
                conn = await stack.enter_async_context(ServerConnection.open(
                    name, loaded.suite.servers[name], base_dir=loaded.path.parent, env=env,
                    wire=wire, client=client))
            except ServerNotReadyError as e:
                pos = loaded.pos("servers", name)
                found.failed[name] = f"{pos}: servers.{name}: {e}"
                continue
            found.ready[name] = conn
            if wire is not None:
                found.wires[name] = wire
        yield found


async def list_surface(conn: ServerConnection) -> dict[str, list[Any]]:
    """The raw listings of one server; a method the server does not offer lists nothing."""
    listed: dict[str, list[Any]] = {"tools": list(conn.tools)}
    for method in EXTRA_LISTS:
        key = LIST_KEYS[method]
        listed[key] = []
        if method.split("/")[0] not in conn.capabilities:
            continue  # not advertised: some servers never answer an unknown method
        outcome = await list_all(conn, method, LIST_TIMEOUT_S)
        if outcome.result is not None:
            listed[key] = list(outcome.result.get(key) or [])
        elif outcome.transport_error and not outcome.transport_error.startswith("protocol:"):
            raise ServerNotReadyError(f"{conn.name}: {method} failed: {outcome.transport_error}")
        # a JSON-RPC error or a malformed answer lists nothing (the wire rule reports the latter)
    return listed
