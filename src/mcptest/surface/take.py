"""Take the snapshot of a suite's servers (`mcptest surface snapshot`, the `surface:` check)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.errors import UsageError
from mcptest.surface.open_servers import OpenServers, list_surface
from mcptest.surface.snapshot import document, server_surface

if TYPE_CHECKING:
    from mcptest.suite.load import LoadedSuite


def snapshot_servers(loaded: LoadedSuite, only: list[str] | None = None) -> list[str]:
    """The servers a snapshot covers: `only` (checked against the suite) or every server."""
    names = list(loaded.suite.servers)
    if only is None:
        return names
    unknown = [n for n in only if n not in names]
    if unknown:
        raise UsageError(f"{loaded.display_path}: unknown server(s) {', '.join(unknown)} "
                         f"(declared: {', '.join(names) or 'none'})")
    return list(only)


async def take_snapshot(found: OpenServers, names: list[str]) -> dict[str, Any]:
    """The snapshot document of the ready servers among `names`."""
    servers: dict[str, Any] = {}
    for name in names:
        conn = found.ready.get(name)
        if conn is not None:
            servers[name] = server_surface(await list_surface(conn))
    return document(servers)
