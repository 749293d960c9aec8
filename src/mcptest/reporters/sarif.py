"""`sarif`: SARIF 2.1.0 for GitHub code scanning (`github/codeql-action/upload-sarif`).

One result per test that did not pass (and per passed test whose jury escalated), located at the
suite file and the line of the assertion that decided it. Built from `sarif_om` objects and
written with `to_sarif_json`, which uses the SARIF property names and leaves out sarif-om's
placeholder defaults (`ruleIndex: -1`, `rank: -1`, …) that GitHub rejects or misreads.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import attr
import sarif_om as om

from mcptest.reporters import DEFAULTS, RenderOptions
from mcptest.reporters.sarif_findings import (
    BASELINE_STATE,
    RULES,
    UNKNOWN_RULE,
    Finding,
    calibration_props,
    findings,
)
from mcptest.reporters.sarif_lint import lint_parts

if TYPE_CHECKING:
    from mcptest.report.models import Report

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://github.com/mcptest/action"
MAX_RESULTS = 5000
"""GitHub keeps the top 5,000 results of a run by severity; we keep the same and count the rest."""

def _uri(path: str) -> tuple[str, str | None]:
    """Repo-relative paths get `%SRCROOT%`; absolute ones become file URIs."""
    posix = path.replace("\\", "/")
    if posix.startswith("/"):
        return "file://" + quote(posix), None
    return quote(posix.removeprefix("./")), "%SRCROOT%"


def _rule(rule_id: str) -> om.ReportingDescriptor:
    short, full, level = RULES.get(rule_id, UNKNOWN_RULE)
    name = "".join(part.capitalize() for part in rule_id.split("/", 1)[-1].split("-"))
    return om.ReportingDescriptor(
        id=rule_id, name=name,
        short_description=om.MultiformatMessageString(text=short),
        full_description=om.MultiformatMessageString(text=full),
        help=om.MultiformatMessageString(
            text=f"{full} See docs/reports.md for the rule list.",
            markdown=f"**{short}.** {full}\n\nSee `docs/reports.md` for the rule list."),
        default_configuration=om.ReportingConfiguration(level=level),
        properties={"tags": ["mcptest", "mcp"]},
    )


def _result(f: Finding, rule_index: int) -> om.Result:
    uri, base = _uri(f.file)
    artifact = om.ArtifactLocation(uri=uri, uri_base_id=base)
    t = f.test
    props: dict[str, Any] = {"status": t.status, "testId": t.id, "testKind": t.kind}
    if t.gap:
        props["gap"] = t.gap
    if t.cost_usd:
        props["costUsd"] = t.cost_usd
    if t.cache_hits:
        props["cacheHits"] = t.cache_hits
    calibration = calibration_props(t, f.assertion_index)
    if calibration:
        props["calibration"] = calibration
    if t.baseline is not None:
        props["baselineChange"] = t.baseline.change
    return om.Result(
        baseline_state=BASELINE_STATE.get(t.baseline.change) if t.baseline else None,
        rule_id=f.rule, rule_index=rule_index, level=f.level,
        message=om.Message(text=f.message[:4000]),
        locations=[om.Location(physical_location=om.PhysicalLocation(
            artifact_location=artifact,
            region=om.Region(start_line=f.line, start_column=f.column)))],
        partial_fingerprints={"primaryLocationLineHash": f.fingerprint},
        properties=props,
    )


def build_log(report: Report) -> om.SarifLog:
    """The SARIF log as sarif-om objects (serialise with `to_sarif_json`)."""
    found = findings(report)
    kept, dropped = found[:MAX_RESULTS], len(found) - min(len(found), MAX_RESULTS)
    rule_ids = sorted({f.rule for f in kept})
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    s = report.summary
    run_props: dict[str, Any] = {
        "counts": s.counts.model_dump(), "costUsd": s.cost_usd, "maxCostUsd": s.max_cost_usd,
        "budgetStopped": s.budget_stopped, "judgeCalls": s.judge_calls,
        "cacheHits": s.cache_hits, "deferred": s.counts.deferred,
        "runAgreement": s.run_agreement, "resultsOmitted": dropped,
        "uncalibrated": s.uncalibrated or None,
        "cascade": s.cascade.model_dump() if s.cascade is not None else None,
    }
    lint_rules, lint_results = lint_parts(report, len(rule_ids))
    driver = om.ToolComponent(
        name="mcptest", version=report.tool.version, semantic_version=report.tool.version,
        information_uri=INFORMATION_URI, rules=[*(_rule(r) for r in rule_ids), *lint_rules])
    run = om.Run(
        tool=om.Tool(driver=driver),
        invocations=[om.Invocation(execution_successful=s.interrupted is None)],
        results=[*(_result(f, index[f.rule]) for f in kept), *lint_results],
        column_kind="unicodeCodePoints",
        properties={k: v for k, v in run_props.items() if v is not None},
    )
    return om.SarifLog(version="2.1.0", schema_uri=SARIF_SCHEMA, runs=[run])


_ALWAYS_KEEP = frozenset({"level", "results", "rules"})
"""Kept even when equal to a sarif-om default: `level` defaults differ per consumer."""


def _to_json(value: Any) -> Any:
    if attr.has(type(value)):
        out: dict[str, Any] = {}
        for field in attr.fields(type(value)):
            item = getattr(value, field.name)
            name = field.metadata.get("schema_property_name", field.name)
            default = field.default
            if isinstance(default, attr.Factory):  # type: ignore[arg-type]
                default = default.factory()
            if item is None or (item == default and name not in _ALWAYS_KEEP):
                continue
            if item in ({}, []) and name not in _ALWAYS_KEEP:
                continue
            out[name] = _to_json(item)
        return out
    if isinstance(value, dict):
        return {k: _to_json(v) for k, v in value.items() if v is not None and _finite(v)}
    if isinstance(value, list | tuple):
        return [_to_json(v) for v in value]
    return value


def _finite(value: Any) -> bool:
    return not isinstance(value, float) or math.isfinite(value)


def to_sarif_json(log: om.SarifLog) -> str:
    """SARIF property names, no placeholder defaults, stable key order, 2-space indent."""
    data = _to_json(log)
    head = {k: data.pop(k) for k in ("$schema", "version") if k in data}
    return json.dumps({**head, **data}, indent=2, ensure_ascii=False) + "\n"


def render(report: Report, options: RenderOptions = DEFAULTS) -> str:
    """The SARIF 2.1.0 document for this report."""
    return to_sarif_json(build_log(report))
