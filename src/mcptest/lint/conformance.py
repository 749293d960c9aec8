"""The 2026-07-28 conformance checks over any transport (`lint.conformance`, docs/conformance.md).

Which connections run which checks: on a raw channel of its own (lint/raw_channel.py: a second
server process on stdio, plain POSTs on Streamable HTTP) the probes of
lint/conformance_probes.py call every tool with no client capabilities, then with form-only
elicitation, a listing after each call, the list methods, a version nobody supports, a
subscription, a cancellation; a second connection's listing; on a dual-era server, the listing
the `initialize` handshake gives.
"""


from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import httpx2

from mcptest.lint import conformance_judge as judge
from mcptest.lint.conformance_probes import (
    FORM_ONLY,
    TIMEOUT_S,
    CheckOutcome,
    Sweep,
    judge_listen,
    listen_http,
    listen_stdio,
    probe_cancel,
    probe_lists,
    probe_version,
    received_messages,
    sweep_tools,
    tools_listing,
)
from mcptest.lint.conformance_rules import MODERN_CHECKS
from mcptest.lint.raw_channel import (
    Channel,
    HttpChannel,
    StdioChannel,
    close_stdio,
    http_channel,
    open_stdio,
)
from mcptest.suite.models import ConformanceSettings, RemoteServer, StdioServer

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path


async def _on_channel(channel: Channel, settings: ConformanceSettings,
                      capabilities: dict[str, Any], out: CheckOutcome) -> Sweep | None:
    listen_id = await listen_stdio(channel) if isinstance(channel, StdioChannel) else None
    tools = await tools_listing(channel, {})
    if tools is None:
        for rule in MODERN_CHECKS:
            out.skip(rule, "tools/list without client capabilities gave no answer")
        return None
    sweep = Sweep(tools)
    skip = set(settings.skip_tools)
    await sweep_tools(channel, sweep, {}, skip, out)
    await sweep_tools(channel, sweep, FORM_ONLY, skip, out)
    await probe_lists(channel, capabilities, out)
    await probe_version(channel, out)
    if isinstance(channel, StdioChannel):
        await probe_cancel(channel, sweep, out)
        assert listen_id is not None
        answered = channel._answers.get(listen_id)
        error = (answered or {}).get("error")
        judge_listen(listen_id, error if isinstance(error, dict) else None,
                      received_messages(channel.received), True, out)
    elif isinstance(channel, HttpChannel):
        await listen_http(channel, out)
        out.skip("cancelled-request-answered", "on Streamable HTTP a client cancels by closing "
                 "the request's stream, after which nothing more can arrive")
    return sweep


async def _legacy_listing(channel: Channel) -> list[dict[str, Any]] | None:
    """tools/list through the `initialize` handshake."""
    init = await channel.request("initialize", {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "mcptest-conformance", "version": "1"}}, TIMEOUT_S)
    if init.result is None:
        return None
    version = str(init.result.get("protocolVersion") or "2025-11-25")
    await channel.notify("notifications/initialized", {})
    answer = await channel.request("tools/list", {"protocolVersion": version}
                                   if isinstance(channel, HttpChannel) else {}, TIMEOUT_S)
    tools = (answer.result or {}).get("tools")
    return [t for t in tools if isinstance(t, dict)] if isinstance(tools, list) else None


async def conformance_findings(name: str, spec: StdioServer | RemoteServer, base_dir: Path,
                               env: Mapping[str, str], settings: ConformanceSettings,
                               capabilities: dict[str, Any], era: str | None) -> CheckOutcome:
    """Run every 2026-07-28 check on one server (stdio or Streamable HTTP)."""
    out = CheckOutcome()
    if era not in ("modern", "dual-era"):
        for rule in (*MODERN_CHECKS, "dual-era-consistency"):
            out.skip(rule, "the server does not speak 2026-07-28")
        return out
    if isinstance(spec, RemoteServer) and spec.transport != "streamable-http":
        for rule in (*MODERN_CHECKS, "dual-era-consistency"):
            out.skip(rule, "2026-07-28 has no HTTP+SSE transport")
        return out
    sweep = await _connection(name, spec, base_dir, env, settings, capabilities, out)
    if sweep is None:
        out.skip("dual-era-consistency", "no listing to compare")
        return out
    second = await _connection(name, spec, base_dir, env, None, capabilities, out)
    if second is not None:
        difference = judge.listing_difference(sweep.tools, second.tools)
        out.add("tools-list-varies", [f"a second connection's tools/list came {difference} "
                                      "than the first's"] if difference else [])
    if era == "dual-era":
        legacy = await _connection(name, spec, base_dir, env, None, capabilities, out,
                                   legacy=True)
        if legacy is None:
            out.skip("dual-era-consistency", "the initialize handshake gave no tools/list")
        else:
            difference = judge.listing_difference(sweep.tools, legacy.tools)
            out.add("dual-era-consistency",
                    [f"the initialize handshake's tools/list came {difference} than "
                     "2026-07-28's"] if difference else [])
    else:
        out.skip("dual-era-consistency", "the server speaks only 2026-07-28")
    return out


async def _connection(name: str, spec: StdioServer | RemoteServer, base_dir: Path,
                      env: Mapping[str, str], settings: ConformanceSettings | None,
                      capabilities: dict[str, Any], out: CheckOutcome,
                      legacy: bool = False) -> Sweep | None:
    """One fresh connection: the full run (`settings`), or only a listing."""
    async def on(channel: Channel) -> Sweep | None:
        if legacy:
            tools = await _legacy_listing(channel)
            return Sweep(tools) if tools is not None else None
        if settings is None:
            tools = await tools_listing(channel, {})
            return Sweep(tools) if tools is not None else None
        return await _on_channel(channel, settings, capabilities, out)

    if isinstance(spec, StdioServer):
        async with anyio.create_task_group() as tg:
            channel = await open_stdio(name, spec, base_dir, env, tg)
            try:
                return await on(channel)
            finally:
                await close_stdio(channel)
                out.noise += [r.text[:200] for r in channel.received if r.message is None]
    assert isinstance(spec, RemoteServer)
    async with httpx2.AsyncClient(timeout=TIMEOUT_S) as client:
        return await on(http_channel(name, spec, env, client))
