"""`lint.conformance` on one server: the 2026-07-28 checks, the stdout check and, for an HTTP
server named under `auth:`, the authorization checks; and each check's status for the report
(`lint.checks`, which the conformance JSON and JUnit show, passed ones included)."""

from __future__ import annotations

from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from mcptest.lint.conformance import conformance_findings
from mcptest.report.models import ConformanceCheckRun
from mcptest.suite.models import ConformanceSettings, LintSettings, RemoteServer, StdioServer

if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from pathlib import Path

    from mcptest.lint.auth_issuer import LoopbackIssuer
    from mcptest.lint.conformance_probes import CheckOutcome
    from mcptest.lint.tool_rules import Raw
    from mcptest.suite.load import LoadedSuite


@dataclass
class Issuers:
    """The loopback issuers of `lint.conformance.auth`, per server, and the environment whose
    `auth.bearer_token_env` variables (when unset) hold a valid token of them."""

    env: Mapping[str, str]
    by_server: dict[str, LoopbackIssuer] = field(default_factory=dict)


@contextmanager
def auth_issuers(loaded: LoadedSuite, settings: LintSettings,
                 env: Mapping[str, str]) -> Iterator[Issuers]:
    """Serve each configured issuer while lint runs (the server under test may fetch its keys
    as it starts), and mint the valid token lint's own connections use."""
    conformance = settings.conformance_settings()
    auth = (conformance.auth if conformance else None) or {}
    if not auth:
        yield Issuers(env)
        return
    from mcptest.lint.auth_issuer import LoopbackIssuer, serve_issuer

    served: dict[str, LoopbackIssuer] = {}
    minted = dict(env)
    out = Issuers(minted)
    with ExitStack() as stack:
        for name, check in auth.items():
            url = check.issuer.rstrip("/")
            if url not in served:
                served[url] = stack.enter_context(serve_issuer(LoopbackIssuer(url)))
            out.by_server[name] = served[url]
            spec = loaded.suite.servers[name]
            var = spec.auth.bearer_token_env if isinstance(spec, RemoteServer) and spec.auth \
                else None
            if var and not env.get(var):
                minted[var] = served[url].token(check.resource or spec.url if isinstance(
                    spec, RemoteServer) else "", check.scopes or [])
        yield out


async def run_conformance(name: str, spec: StdioServer | RemoteServer, base_dir: Path,
                          env: Mapping[str, str], settings: ConformanceSettings,
                          capabilities: dict[str, Any], era: str | None,
                          found: list[Raw], issuers: Issuers) -> CheckOutcome:
    """Every conformance check on one server; `found` holds what lint found already (the
    stdout rule runs on every stdio server's wire tap)."""
    out = await conformance_findings(name, spec, base_dir, env, settings, capabilities, era)
    if isinstance(spec, StdioServer):
        if not any(r == "stdio-stdout" for r, *_ in found):
            out.add("stdio-stdout", out.noise[:3])
        out.ran.setdefault("stdio-stdout", None)
    else:
        out.skip("stdio-stdout", "not a stdio server")
    auth = (settings.auth or {}).get(name)
    if auth is not None and isinstance(spec, RemoteServer):
        from mcptest.lint.auth_checks import auth_findings

        await auth_findings(name, spec, env, auth, issuers.by_server[name], out)
    return out


def check_runs(server: str, outcome: CheckOutcome, raw: list[Raw]) -> list[ConformanceCheckRun]:
    """The status of each check that was meant to run on `server`."""
    failed = {rule for rule, *_ in raw}
    runs: list[ConformanceCheckRun] = []
    for rule, why in outcome.ran.items():
        if rule in failed:
            runs.append(ConformanceCheckRun(rule=rule, server=server, status="failed"))
        elif why is None:
            runs.append(ConformanceCheckRun(rule=rule, server=server, status="passed"))
        else:
            runs.append(ConformanceCheckRun(rule=rule, server=server, status="skipped", note=why))
    return runs
