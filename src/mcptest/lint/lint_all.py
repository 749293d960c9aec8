"""`mcptest lint`: open each suite's servers with a wire tap, run every rule, check the surface
snapshot, and return one canonical `Report` whose `lint` section holds the findings.

Needs no key and never imports litellm (docs/lint.md).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from mcptest.lint import probes, tool_rules
from mcptest.lint.conformance_run import Issuers, auth_issuers, check_runs, run_conformance
from mcptest.lint.elicitation_check import elicitation_findings
from mcptest.lint.era_probe import era_facts, era_findings
from mcptest.lint.http_probes import bind_findings, origin_findings
from mcptest.lint.provider_schemas import providers_of
from mcptest.lint.rules import RULES
from mcptest.lint.suppress import apply_expected, check_rule_ids, ignored, load_expected
from mcptest.lint.surface_check import surface_findings
from mcptest.lint.wire_check import check_wire, era_of, stdout_problems
from mcptest.llm.known_secrets import known_secrets
from mcptest.report.build import lint_exit_code
from mcptest.report.models import (
    ConformanceCheckRun,
    Counts,
    LintFinding,
    LintRuleInfo,
    LintSection,
    Location,
    Report,
    ServerReport,
    Summary,
    ToolInfo,
)
from mcptest.report.redact import redact_value
from mcptest.suite.models import LintSettings, RemoteServer, StdioServer
from mcptest.surface.matrix import take_matrix
from mcptest.surface.open_servers import open_servers
from mcptest.surface.take import snapshot_servers, take_snapshot
from mcptest.version import __version__

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.run.session import ServerConnection
    from mcptest.suite.load import LoadedSuite


@dataclass
class LintRun:
    findings: list[LintFinding] = field(default_factory=list)
    servers: list[ServerReport] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    suppressed: int = 0
    checked: int = 0
    secrets: set[str] = field(default_factory=set)
    checks: list[ConformanceCheckRun] = field(default_factory=list)


def _models(loaded: LoadedSuite) -> list[str]:
    found: list[str] = []

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if key == "model" and isinstance(item, str):
                    found.append(item)
                elif key == "models" and isinstance(item, list):
                    found.extend(m for m in item if isinstance(m, str))
                else:
                    walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(loaded.suite.model_dump())
    return found


async def _server_rules(conn: ServerConnection, loaded: LoadedSuite, settings: LintSettings,
                        others: set[str]) -> list[tool_rules.Raw]:
    tools = [t for t in conn.tools if isinstance(t, dict)]
    providers: set[str] = (set(settings.providers) if settings.providers is not None
                            else set(providers_of(_models(loaded))))
    raw = [*tool_rules.tool_names(tools), *tool_rules.input_schemas(tools),
           *tool_rules.descriptions(tools, settings.min_description),
           *tool_rules.tool_annotations(tools, settings.profile),
           *tool_rules.injections(tools, others),
           *tool_rules.provider_schemas(tools, providers), *await probes.list_order(conn),
           *await probes.cursor_validation(conn)]
    if settings.probe_invalid_args:
        raw += await probes.probe_invalid_args(conn)
    if settings.call_tools:
        raw += await probes.replay_tool_tests(
            conn, [t for t in loaded.suite.tools if t.server == conn.name])
    return raw


async def lint_suite(loaded: LoadedSuite, env: Mapping[str, str], *, update: bool) -> LintRun:
    """Run every rule on every server of one suite."""
    settings = loaded.suite.lint or LintSettings()
    check_rule_ids(loaded, settings)
    expected = load_expected(loaded, settings)
    out = LintRun()
    out.secrets.update(known_secrets([loaded.suite], env))
    names = list(loaded.suite.servers)
    with auth_issuers(loaded, settings, env) as issuers:
        out.secrets.update(v for k, v in issuers.env.items() if env.get(k) != v)
        await _lint_servers(loaded, settings, issuers, names, update, out)
    kept = [f for f in out.findings if not ignored(f, settings)]
    out.suppressed = len(out.findings) - len(kept)
    out.findings = apply_expected(kept, expected)
    return out


async def _lint_servers(loaded: LoadedSuite, settings: LintSettings, issuers: Issuers,
                        names: list[str], update: bool, out: LintRun) -> None:
    env = issuers.env
    async with open_servers(loaded, names, env, tap=True) as found:
        out.errors.extend(found.failed.values())
        tool_owner = {str(t.get("name")): n for n, c in found.ready.items() for t in c.tools}
        findings: list[LintFinding] = []
        eras: dict[str, str | None] = {}
        # The other era's handshake needs a connection of its own (a stdio server started once
        # more): every server's probe starts now and runs beside the snapshot and the rules.
        era_probes = {name: asyncio.ensure_future(era_facts(
            conn, loaded.suite.servers[name], loaded.path.parent, env))
            for name, conn in found.ready.items()}
        try:
            # Listing every section first also puts resources/prompts results on the wire tap.
            current = await take_snapshot(found, names)
            for name, conn in found.ready.items():
                out.secrets.update(conn.secrets())
                others = {t for t, owner in tool_owner.items() if owner != name}
                pos = loaded.key_pos("servers", name)
                where = Location(file=pos.file, line=pos.line, column=pos.column)
                raw = await _server_rules(conn, loaded, settings, others)
                stdio = isinstance(loaded.suite.servers[name], StdioServer)
                problems, checked = check_wire(found.wires[name], conn.protocol_version,
                                               stdio=stdio)
                out.checked += checked
                raw += [("wire-schema", "error", None, p) for p in problems]
                if stdio:
                    raw += [("stdio-stdout", "error", None, p)
                            for p in stdout_problems(found.wires[name])]
                raw += elicitation_findings(found.wires.get(name))
                spec = loaded.suite.servers[name]
                if isinstance(spec, RemoteServer):
                    raw += [*await origin_findings(name, spec, conn.protocol_version, env),
                            *bind_findings(spec)]
                facts = await era_probes[name]
                raw += era_findings(facts, (settings.era or {}).get(name))
                conformance = settings.conformance_settings()
                if conformance is not None and (conformance.servers is None
                                                or name in conformance.servers):
                    outcome = await run_conformance(name, spec, loaded.path.parent, env,
                                                    conformance, conn.capabilities, facts.era, raw,
                                                    issuers)
                    raw += outcome.problems
                    out.checks += check_runs(name, outcome, raw)
                eras[name] = facts.era or era_of(found.wires.get(name), conn.protocol_version)
                findings += [LintFinding(rule=r, level=lv, subject=s, message=m, server=name,
                                         location=where) for r, lv, s, m in raw]
            if loaded.suite.surface is not None:
                scope = snapshot_servers(loaded, loaded.suite.surface.servers)
                if loaded.suite.surface.client_capabilities:  # one connection per set
                    sets = [frozenset(s) for s in loaded.suite.surface.client_capabilities]
                    current, failed = await take_matrix(loaded, scope, env, sets)
                    out.errors.extend(v for k, v in failed.items() if k not in found.failed)
                kept = {k: v for k, v in current["servers"].items() if k in scope}
                mine = redact_value({**current, "servers": kept}, out.secrets)
                surface, _ = surface_findings(loaded, loaded.suite.surface, mine, update=update,
                                              unavailable=set(found.failed))
                findings += surface
        finally:
            for task in era_probes.values():
                task.cancel()  # a no-op for a probe that has finished
            await asyncio.gather(*era_probes.values(), return_exceptions=True)
        reports = found.reports(loaded)
        out.servers = [r.model_copy(update={"era": eras.get(r.name)}) for r in reports]
    out.findings = findings


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def build_lint_report(suites: list[str], runs: list[LintRun], started: str,
                      duration_ms: float) -> Report:
    findings = [f for r in runs for f in r.findings]
    errors = [e for r in runs for e in r.errors]
    checks = [c for r in runs for c in r.checks]
    fired = sorted({f.rule for f in findings} | {c.rule for c in checks})
    rules: list[LintRuleInfo] = [RULES[r].info() for r in fired if r in RULES]
    return Report(
        tool=ToolInfo(version=__version__), started_at=started, finished_at=_now(),
        suites=suites, servers=[s for r in runs for s in r.servers],
        summary=Summary(counts=Counts(), duration_ms=round(duration_ms, 1),
                        exit_code=lint_exit_code(findings, errors)),
        warnings=errors,
        lint=LintSection(findings=findings, rules=rules,
                         suppressed=sum(r.suppressed for r in runs),
                         messages_checked=sum(r.checked for r in runs), checks=checks),
    )


async def lint_all(loaded: list[LoadedSuite], env: Mapping[str, str], *,
                   update: bool) -> tuple[Report, set[str]]:
    """The lint report of every suite, and the secrets reporters must redact."""
    started, t0 = _now(), time.perf_counter()
    runs = [await lint_suite(s, env, update=update) for s in loaded]
    report = build_lint_report([s.display_path for s in loaded], runs, started,
                               (time.perf_counter() - t0) * 1000)
    return report, {x for r in runs for x in r.secrets}
