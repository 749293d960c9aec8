"""Connect to a server the way the written suite will, and list its tools, resources and prompts.

Everything listed is server output: untrusted data, only ever written as YAML values or as
sanitized one-line comments (see `starter.suite`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcp.shared.exceptions import MCPError

from mcptest.run.session import ServerConnection
from mcptest.starter.client_block import discovery_config

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from mcptest.suite.models import RemoteServer, StdioServer


@dataclass
class Catalog:
    server_name: str | None
    tools: list[dict[str, Any]]
    resources: list[dict[str, Any]] = field(default_factory=list)
    prompts: list[dict[str, Any]] = field(default_factory=list)


async def discover(
    name: str, spec: StdioServer | RemoteServer, *, base_dir: Path, env: Mapping[str, str],
) -> Catalog:
    """What the server lists to a client that declares every capability (`client_block`); a
    server without resources or prompts lists none of them."""
    async with ServerConnection.open(name, spec, base_dir=base_dir, env=env,
                                     client=discovery_config(base_dir)) as conn:
        session = conn.session
        resources: list[dict[str, Any]] = []
        prompts: list[dict[str, Any]] = []
        if session is not None:
            try:
                listed = await session.list_resources()
                resources = [r.model_dump(mode="json", by_alias=True) for r in listed.resources]
            except MCPError:
                pass  # no resources/list: nothing to mention
            try:
                listed_prompts = await session.list_prompts()
                prompts = [p.model_dump(mode="json", by_alias=True)
                           for p in listed_prompts.prompts]
            except MCPError:
                pass
        return Catalog(server_name=conn.server_name, tools=list(conn.tools),
                       resources=resources, prompts=prompts)
