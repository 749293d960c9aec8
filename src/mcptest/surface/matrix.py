"""The capability matrix: a server's surface listed under several client capability sets, and
what appears only under some of them (docs/lint.md#capability-matrix).

Servers hide tools from a client that lacks a capability (server-everything lists its sampling,
elicitation and roots tools only to a client declaring them), and nothing tells a user why. Each
set gets a connection of its own; the snapshot keeps the union of what was listed, and under
`client_capabilities` each set's name and, per section, the items not listed under every set
with the sets they were listed under. `surface diff` reports an item that lost a set
(`capability-narrowed`, breaking for clients with only that set) or gained one
(`capability-widened`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.errors import UsageError
from mcptest.suite.models.client import CAPABILITIES
from mcptest.surface.snapshot import KINDS, document, server_surface

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcptest.suite.load import LoadedSuite

NONE = "none"
ALL = "all"


def set_name(caps: frozenset[str]) -> str:
    """`sampling,elicitation`, in the order of CAPABILITIES; `none` for the empty set."""
    return ",".join(c for c in CAPABILITIES if c in caps) or NONE


def parse_set(text: str) -> frozenset[str]:
    """A `--client-capabilities` value: names joined by commas, `none`, or `all`."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names in ([], [NONE]):
        return frozenset()
    if names == [ALL]:
        return frozenset(CAPABILITIES)
    unknown = [n for n in names if n not in CAPABILITIES]
    if unknown:
        raise UsageError(f"--client-capabilities: unknown capability {unknown[0]!r} (known: "
                         f"{', '.join(CAPABILITIES)}; or `none`, `all`)")
    return frozenset(names)


def merge(listed: Sequence[tuple[frozenset[str], dict[str, list[Any]]]]) -> dict[str, Any]:
    """One server's section from its listings under each set: the union of the items (the
    first set's version of an item wins) and `client_capabilities`."""
    sets = [set_name(caps) for caps, _ in listed]
    union: dict[str, list[Any]] = {}
    only: dict[str, dict[str, list[str]]] = {}
    normalized = [server_surface(items) for _, items in listed]
    for section, (key, _) in KINDS.items():
        seen: dict[str, Any] = {}
        under: dict[str, list[str]] = {}
        for surface, name in zip(normalized, sets, strict=True):
            for item in surface[section]:
                ident = str(item.get(key))
                seen.setdefault(ident, item)
                under.setdefault(ident, []).append(name)
        union[section] = list(seen.values())
        gated = {ident: names for ident, names in under.items() if len(names) < len(sets)}
        if gated:
            only[section] = dict(sorted(gated.items()))
    return {**server_surface(union), "client_capabilities": {"sets": sets, "only": only}}


async def take_matrix(loaded: LoadedSuite, names: list[str], env: Mapping[str, str],
                      sets: Sequence[frozenset[str]]) -> tuple[dict[str, Any], dict[str, str]]:
    """The snapshot document of `names` under every set, and the servers that failed."""
    from mcptest.surface.open_servers import list_surface, open_servers

    listed: dict[str, list[tuple[frozenset[str], dict[str, list[Any]]]]] = {}
    failed: dict[str, str] = {}
    for caps in sets:
        async with open_servers(loaded, names, env, capabilities=caps) as found:
            failed.update({n: f"{line} (client capabilities: {set_name(caps)})"
                           for n, line in found.failed.items() if n not in failed})
            for name in names:
                conn = found.ready.get(name)
                if conn is not None:
                    listed.setdefault(name, []).append((caps, await list_surface(conn)))
    servers = {n: merge(listed[n]) for n in names if n in listed and n not in failed}
    return document(servers), failed


def describe(doc: dict[str, Any]) -> list[str]:
    """One line per item listed only under some sets (for the terminal)."""
    lines: list[str] = []
    for server, body in doc.get("servers", {}).items():
        matrix = body.get("client_capabilities") or {}
        for section, items in (matrix.get("only") or {}).items():
            noun = {"resourceTemplates": "resource template"}.get(section, section[:-1])
            for ident, under in items.items():
                lines.append(f"{server}: {noun} {ident} appears only with: {' | '.join(under)}")
    return lines


def capability_changes(server: str, old: dict[str, Any], new: dict[str, Any]
                       ) -> list[tuple[str, str, str, str]]:
    """(kind, section, item, message) for each item in both snapshots that is listed under
    fewer or more of the capability sets both took."""
    before_m, after_m = old.get("client_capabilities"), new.get("client_capabilities")
    if not isinstance(before_m, dict) or not isinstance(after_m, dict):
        return []
    common = [s for s in after_m.get("sets", []) if s in before_m.get("sets", [])]
    out: list[tuple[str, str, str, str]] = []
    for section, (key, _) in KINDS.items():
        noun = {"resourceTemplates": "resource-template"}.get(section, section[:-1])
        both = ({str(i.get(key)) for i in old.get(section, [])}
                & {str(i.get(key)) for i in new.get(section, [])})
        for ident in sorted(both):
            was = _under(before_m, section, ident, common)
            now = _under(after_m, section, ident, common)
            if now < was:
                lost = [s for s in common if s in was - now]
                out.append(("capability-narrowed", section, ident,
                            f"{noun} `{ident}` is no longer listed with {' | '.join(lost)} "
                            f"(now only with: {' | '.join(s for s in common if s in now)})"))
            elif now > was:
                gained = [s for s in common if s in now - was]
                out.append(("capability-widened", section, ident,
                            f"{noun} `{ident}` is now also listed with {' | '.join(gained)}"))
    return out


def _under(matrix: dict[str, Any], section: str, ident: str, common: list[str]) -> set[str]:
    listed = ((matrix.get("only") or {}).get(section) or {}).get(ident)
    return set(common) if listed is None else set(listed) & set(common)
