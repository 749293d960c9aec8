"""DNS-rebinding protection of a local Streamable HTTP server: does it serve a request whose
`Origin` (or `Host`) names another site, and does it listen on every interface
(docs/lint.md#http-origin, #http-bind-all)?

Only local servers are probed: the URL's host is a loopback name or address (or 0.0.0.0/::), or
mcptest started the server itself (`start:`). That is where a web page can reach a server by
rebinding its own domain to 127.0.0.1. The opening request of the server's era is sent three
times (as mcptest sends it, with a foreign `Origin`, with a foreign `Host`); a session an
`initialize` opens is closed again with DELETE.
"""

from __future__ import annotations

import ipaddress
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx2
from mcp_types.version import LATEST_HANDSHAKE_VERSION, MODERN_PROTOCOL_VERSIONS

from mcptest.errors import ServerNotReadyError
from mcptest.run.connect import plan_remote
from mcptest.version import __version__

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.lint.tool_rules import Raw
    from mcptest.suite.models import RemoteServer

FOREIGN = "mcptest-rebinding.invalid"
TIMEOUT_S = 10.0
ALL_INTERFACES = {"0.0.0.0", "::"}
CLIENT = {"name": "mcptest-lint", "version": __version__}


def is_loopback_server(spec: RemoteServer) -> bool:
    """The URL points at this machine's loopback (or its wildcard), or mcptest starts it."""
    host = (urlsplit(spec.url).hostname or "").lower()
    if spec.start is not None or host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def _opening(version: str | None) -> tuple[dict[str, Any], dict[str, str]]:
    """The first request of the negotiated era, and the headers that go with it."""
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if version in MODERN_PROTOCOL_VERSIONS:
        meta = {"io.modelcontextprotocol/protocolVersion": version,
                "io.modelcontextprotocol/clientInfo": CLIENT,
                "io.modelcontextprotocol/clientCapabilities": {}}
        headers |= {"MCP-Protocol-Version": str(version), "Mcp-Method": "server/discover"}
        return {"jsonrpc": "2.0", "id": 1, "method": "server/discover",
                "params": {"_meta": meta}}, headers
    params = {"protocolVersion": version or LATEST_HANDSHAKE_VERSION, "capabilities": {},
              "clientInfo": CLIENT}
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}, headers


async def _post(client: httpx2.AsyncClient, url: str, body: dict[str, Any],
                headers: dict[str, str]) -> int | None:
    try:
        response = await client.post(url, json=body, headers=headers)
    except httpx2.HTTPError:
        return None
    session = response.headers.get("mcp-session-id")
    await response.aclose()
    if session:  # close what the probe opened
        with suppress(httpx2.HTTPError):
            await client.delete(url, headers={**headers, "Mcp-Session-Id": session})
    return response.status_code


async def observe(name: str, spec: RemoteServer, version: str | None,
                  env: Mapping[str, str]) -> tuple[int | None, int | None, int | None] | None:
    """HTTP statuses of the opening request as mcptest sends it, with a foreign Origin and with
    a foreign Host; None when the server is not a local Streamable HTTP one."""
    if spec.transport != "streamable-http" or not is_loopback_server(spec):
        return None
    try:
        auth = plan_remote(name, spec, env).headers
    except ServerNotReadyError:
        return None
    body, headers = _opening(version)
    headers = {**auth, **headers}
    async with httpx2.AsyncClient(timeout=TIMEOUT_S) as client:
        plain = await _post(client, spec.url, body, headers)
        origin = await _post(client, spec.url, body, {**headers, "Origin": f"http://{FOREIGN}"})
        host = await _post(client, spec.url, body, {**headers, "Host": _foreign_host(spec)})
    return plain, origin, host


def _foreign_host(spec: RemoteServer) -> str:
    port = urlsplit(spec.url).port or (443 if spec.url.startswith("https") else 80)
    return f"{FOREIGN}:{port}"


def _served(status: int | None) -> bool:
    return status is not None and 200 <= status < 300


async def origin_findings(name: str, spec: RemoteServer, version: str | None,
                          env: Mapping[str, str]) -> list[Raw]:
    """`http-origin`: a foreign Origin served (with or without a Host check to stop it)."""
    seen = await observe(name, spec, version, env)
    if seen is None or not _served(seen[0]):
        return []  # nothing to compare with: the probe itself is not served
    _, origin, host = seen
    said = f"a POST with `Origin: http://{FOREIGN}`"
    if _served(origin) and _served(host):
        return [("http-origin", "error", None,
                 f"served {said} and one with `Host: {_foreign_host(spec)}` (HTTP {origin}): "
                 "a web page can reach it by DNS rebinding; an invalid Origin must get 403")]
    if _served(origin):
        return [("http-origin", "warning", None,
                 f"served {said} (HTTP {origin}); its Host check turns a rebinding browser away, "
                 "but the spec requires 403 for an invalid Origin")]
    if origin is not None and origin != 403:
        return [("http-origin", "warning", None,
                 f"refused {said} with HTTP {origin}; the spec asks for 403 Forbidden")]
    return []


def listening_addresses(port: int, proc_net: Path = Path("/proc/net")) -> set[str] | None:
    """Local addresses with a TCP socket listening on `port`, read from the kernel's table
    (Linux, this network namespace); None where that table cannot be read."""
    found: set[str] = set()
    readable = False
    for table, width in (("tcp", 8), ("tcp6", 32)):
        try:
            lines = (proc_net / table).read_text(encoding="ascii").splitlines()[1:]
        except OSError:
            continue
        readable = True
        for line in lines:
            fields = line.split()
            if len(fields) < 4 or fields[3] != "0A":  # 0A: LISTEN
                continue
            address, _, hex_port = fields[1].partition(":")
            if int(hex_port, 16) != port or len(address) != width:
                continue
            raw = bytes.fromhex(address)
            # the kernel prints each 32-bit word in host (little-endian) order
            ordered = b"".join(raw[i:i + 4][::-1] for i in range(0, len(raw), 4))
            found.add(str(ipaddress.ip_address(ordered)))
    return found if readable else None


def bind_findings(spec: RemoteServer, proc_net: Path = Path("/proc/net")) -> list[Raw]:
    """`http-bind-all`: a local server listening on every interface."""
    if not is_loopback_server(spec):
        return []
    port = urlsplit(spec.url).port or (443 if spec.url.startswith("https") else 80)
    addresses = listening_addresses(port, proc_net)
    wide = sorted((addresses or set()) & ALL_INTERFACES)
    if not wide:
        return []
    shown = ", ".join(f"[{a}]:{port}" if ":" in a else f"{a}:{port}" for a in wide)
    return [("http-bind-all", "warning", None,
             f"listens on {shown}, every network interface: a local server should bind "
             "127.0.0.1 only, so other machines cannot reach it")]
