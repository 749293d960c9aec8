"""`lint.conformance` on one server: the 2026-07-28 checks, the stdout check and, for an HTTP
server named under `auth:`, the authorization checks; and each check's status for the report
(`lint.checks`, which the conformance JSON and JUnit show, passed ones included)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcptest.lint.conformance import CheckOutcome, conformance_findings
from mcptest.lint.tool_rules import Raw
from mcptest.report.models import ConformanceCheckRun
from mcptest.suite.models import ConformanceSettings, RemoteServer, StdioServer


async def run_conformance(name: str, spec: StdioServer | RemoteServer, base_dir: Path,
                          env: Mapping[str, str], settings: ConformanceSettings,
                          capabilities: dict[str, Any], era: str | None,
                          found: list[Raw]) -> CheckOutcome:
    """Every conformance check on one server; `found` holds what lint found already (the
    stdout rule runs on every stdio server's wire tap)."""
    out = await conformance_findings(name, spec, base_dir, env, settings, capabilities, era)
    if isinstance(spec, StdioServer):
        if not any(r == "stdio-stdout" for r, *_ in found):
            out.add("stdio-stdout", out.noise[:3])
        out.ran.setdefault("stdio-stdout", None)
    else:
        out.skip("stdio-stdout", "not a stdio server")
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
