"""`mcptest validate --connect`: every tool, prompt and resource a suite names, checked against
what its live servers list, with "did you mean" (docs/suites.md, "Names the server does not
have"). A wrong name is then a suite error before the run, not a failing test during it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcptest.errors import ServerNotReadyError, SuiteError
from mcptest.grade.absent import expects_error, unknown_name
from mcptest.surface.open_servers import list_surface, open_servers

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.load import LoadedSuite


@dataclass
class NameCheck:
    errors: list[SuiteError] = field(default_factory=list)
    """Names the server does not list (tools, prompts, resource templates)."""
    warnings: list[SuiteError] = field(default_factory=list)
    """Resource URIs it does not list: a server may still serve one it does not list."""
    not_ready: list[str] = field(default_factory=list)


def _servers(loaded: LoadedSuite) -> list[str]:
    suite = loaded.suite
    named = [*(t.server for t in suite.tools), *(t.server for t in suite.resources),
             *(t.server for t in suite.prompts), *(t.server for t in suite.lists)]
    return [s for s in dict.fromkeys(named) if s in suite.servers]


def _names(listed: dict[str, list[Any]], section: str, key: str) -> list[str]:
    return [str(item.get(key)) for item in listed.get(section) or [] if isinstance(item, dict)]


def _check(loaded: LoadedSuite, server: str, listed: dict[str, list[Any]], out: NameCheck) -> None:
    suite = loaded.suite

    def note(into: list[SuiteError], section: str, i: int, key: str, message: str) -> None:
        into.append(SuiteError(message, loaded.pos(section, i, key), f"{section}[{i}].{key}"))

    tools = _names(listed, "tools", "name")
    for i, t in enumerate(suite.tools):
        if t.server == server and "${" not in t.tool and (
                msg := unknown_name("tool", t.tool, server, tools)):
            if expects_error(t.expect):  # calling an unknown tool on purpose
                note(out.warnings, "tools", i, "tool", f"{msg} (the test expects an error)")
            else:
                note(out.errors, "tools", i, "tool", msg)
    prompts = _names(listed, "prompts", "name")
    for i, p in enumerate(suite.prompts):
        if p.server == server and (msg := unknown_name("prompt", p.prompt, server, prompts)):
            note(out.errors, "prompts", i, "prompt", msg)
    templates = _names(listed, "resourceTemplates", "uriTemplate")
    uris = _names(listed, "resources", "uri")
    for i, r in enumerate(suite.resources):
        if r.server != server:
            continue
        if r.template is not None and (
                msg := unknown_name("resource template", r.template, server, templates)):
            note(out.errors, "resources", i, "template", msg)
        if r.uri is not None and (msg := unknown_name("resource", r.uri, server, uris)):
            note(out.warnings, "resources", i, "uri",
                 f"{msg} (it may still serve it: servers need not list every resource)")


async def check_names(loaded: LoadedSuite, env: Mapping[str, str]) -> NameCheck:
    """Start the servers the suite's tests use, list them, and check every name."""
    out = NameCheck()
    async with open_servers(loaded, _servers(loaded), env) as found:
        out.not_ready.extend(found.failed.values())
        for name, conn in found.ready.items():
            try:
                listed = await list_surface(conn)
            except ServerNotReadyError as e:
                out.not_ready.append(f"{loaded.pos('servers', name)}: servers.{name}: {e}")
                continue
            _check(loaded, name, listed, out)
    return out
