"""A server's protocol era from both handshakes, and the `era-mismatch` rule (docs/lint.md#the-era).

The 2026-07-28 revision drops the `initialize` handshake: a modern client opens with
`server/discover`, a legacy one with `initialize`, and a dual-era server answers whichever comes
first. One connection shows one era, so the era it did not negotiate is tried on a second
connection of its own, pinned to that era (a stdio server is started once more; a remote one is
dialled again, never started again). An `auto` connection that settled on `initialize` already
asked `server/discover` and got no modern answer, which is the spec's own test for a legacy
server, so it needs no second connection.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from mcptest.errors import ServerNotReadyError
from mcptest.run.session import ServerConnection
from mcptest.run.wire import WireLog
from mcptest.suite.models import RemoteServer, StdioServer

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from mcptest.lint.tool_rules import Raw

Era = Literal["legacy", "modern", "dual-era"]
PROBE_STARTUP_S = 10.0
"""The most the second connection may take: a server that never answers the other era's
opening request would otherwise hold the lint for its whole `startup_timeout`."""
REFUSED = ("protocol error", "protocol negotiation failed", "waiting for the initialize answer",
           "waiting for the server/discover answer")
"""How a second connection that the server turned down reads (run/connect.py): an error to the
opening request, an answer of the wrong era, or no answer at all."""


@dataclass(frozen=True)
class EraFacts:
    legacy: bool | None
    """The server accepts the `initialize` handshake (None: could not tell)."""
    modern: bool | None
    """It answers `server/discover` at 2026-07-28."""
    advertised: tuple[str, ...] | None
    """`supportedVersions` of its discover answer, if it gave one."""
    note: str | None = None
    """Why one side could not be told."""

    @property
    def era(self) -> Era | None:
        if self.legacy and self.modern:
            return "dual-era"
        if self.modern:
            return "modern"
        if self.legacy:
            return "legacy"
        return None


def _advertised(wire: WireLog | None) -> tuple[str, ...] | None:
    for message in wire.messages if wire else []:
        if message.kind == "result" and message.method == "server/discover":
            versions = message.body.get("supportedVersions")
            if isinstance(versions, list):
                return tuple(str(v) for v in versions)
    return None


async def _accepts(name: str, spec: StdioServer | RemoteServer, protocol: str, base_dir: Path,
                   env: Mapping[str, str], wire: WireLog) -> tuple[bool | None, str | None]:
    update: dict[str, object] = {"protocol": protocol,
                                 "startup_timeout": min(spec.startup_timeout, PROBE_STARTUP_S)}
    if isinstance(spec, RemoteServer):
        update["start"] = None  # the running server is dialled again, not started again
    pinned = spec.model_copy(update=update)
    try:
        async with ServerConnection.open(name, pinned, base_dir=base_dir, env=env, wire=wire):
            return True, None
    except ServerNotReadyError as e:
        text = str(e)
        if any(marker in text for marker in REFUSED):
            return False, None
        return None, f"a second connection ({protocol}) failed: {text}"


async def era_facts(conn: ServerConnection, spec: StdioServer | RemoteServer, base_dir: Path,
                    env: Mapping[str, str]) -> EraFacts:
    """Which handshakes the server accepts: the negotiated one, and the other one tried."""
    negotiated_modern = conn.protocol_version in MODERN_PROTOCOL_VERSIONS
    advertised = _advertised(conn.wire)
    if conn.protocol_version is None:
        return EraFacts(None, None, advertised)
    if not negotiated_modern and spec.protocol == "auto":
        return EraFacts(True, False, advertised)
    other = "legacy" if negotiated_modern else "2026-07-28"
    wire = WireLog()
    accepted, note = await _accepts(conn.name, spec, other, base_dir, env, wire)
    if negotiated_modern:
        return EraFacts(accepted, True, advertised, note)
    return EraFacts(True, accepted, advertised or _advertised(wire), note)


def era_findings(facts: EraFacts, declared: str | None) -> list[Raw]:
    """`era-mismatch`: the era the suite declares (`lint.era`), or the handshake-era versions
    the server advertises, against the handshakes it accepts."""
    found: list[Raw] = []
    era = facts.era
    sides = (f"initialize {'accepted' if facts.legacy else 'refused'}, server/discover "
             f"{'answered' if facts.modern else 'not answered'}")
    if declared is not None and era is not None and declared != era:
        found.append(("era-mismatch", "error", None,
                      f"declared {declared} (lint.era) but the server is {era}: {sides}"))
    elif declared is not None and era is None:
        found.append(("era-mismatch", "warning", None,
                      f"declared {declared} (lint.era) but the era could not be told: "
                      f"{facts.note or sides}"))
    old = [v for v in facts.advertised or () if v in HANDSHAKE_PROTOCOL_VERSIONS]
    if old and facts.legacy is False:
        found.append(("era-mismatch", "warning", None,
                      f"server/discover lists {', '.join(old)} but the initialize handshake was "
                      "refused: a legacy client told so cannot connect"))
    return found
