"""The lint part of the SARIF log: one rule per lint/surface rule that fired (with `helpUri`
into docs/lint.md) and one result per finding, located on the suite file's server entry or on
the surface snapshot file (docs/lint.md#sarif).
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import sarif_om as om

if TYPE_CHECKING:
    from mcptest.report.models import LintFinding, LintRuleInfo, Report

PREFIX = "mcptest/"


def rule_id(rule: str) -> str:
    return PREFIX + (rule if rule.startswith("surface/") else f"lint/{rule}")


def descriptor(info: LintRuleInfo) -> om.ReportingDescriptor:
    page = "docs/lint.md"
    spec, spec_md = "", ""
    properties: dict[str, Any] = {"tags": ["mcptest", "mcp", "lint"]}
    if info.spec is not None:  # a conformance rule: its spec section (docs/conformance.md)
        page = "docs/conformance.md"
        spec = f" Spec: {info.spec} ({info.spec_url})."
        spec_md = f" Spec: [{info.spec}]({info.spec_url})."
        properties = {"tags": ["mcptest", "mcp", "conformance"], "spec": info.spec,
                      "specUrl": info.spec_url}
    return om.ReportingDescriptor(
        id=rule_id(info.id), name=info.name,
        short_description=om.MultiformatMessageString(text=info.short),
        full_description=om.MultiformatMessageString(text=info.help + spec),
        help=om.MultiformatMessageString(
            text=f"{info.help}{spec} See {info.help_uri}",
            markdown=f"**{info.short}.** {info.help}{spec_md}\n\n[{page}]({info.help_uri})"),
        help_uri=info.help_uri,
        default_configuration=om.ReportingConfiguration(level=info.level),
        properties=properties,
    )


def _uri(path: str) -> tuple[str, str | None]:
    posix = path.replace("\\", "/")
    if posix.startswith("/"):
        return "file://" + quote(posix), None
    return quote(posix.removeprefix("./")), "%SRCROOT%"


def _fingerprint(f: LintFinding) -> str:
    parts = [f.rule, f.location.file, f.server or "", f.subject or ""]
    if f.subject is None:
        parts.append(f.message)
    return hashlib.sha256("\0".join(parts).encode("utf-8")).hexdigest()


def result(f: LintFinding, index: int) -> om.Result:
    uri, base = _uri(f.location.file)
    props: dict[str, Any] = {"lintRule": f.rule}
    if f.server:
        props["server"] = f.server
    if f.subject:
        props["subject"] = f.subject
    if f.expected:
        props["expectedFailure"] = True
    return om.Result(
        rule_id=rule_id(f.rule), rule_index=index, level=f.level,
        message=om.Message(text=(f"{f.server}: " if f.server else "") + f.message[:4000]),
        locations=[om.Location(physical_location=om.PhysicalLocation(
            artifact_location=om.ArtifactLocation(uri=uri, uri_base_id=base),
            region=om.Region(start_line=max(f.location.line, 1),
                             start_column=max(f.location.column, 1))))],
        partial_fingerprints={"primaryLocationLineHash": _fingerprint(f)},
        properties=props,
    )


def lint_parts(report: Report, first_index: int) -> tuple[list[om.ReportingDescriptor],
                                                          list[om.Result]]:
    """Rules and results of the report's lint section; rule indexes start at `first_index`."""
    if report.lint is None:
        return [], []
    infos = sorted(report.lint.rules, key=lambda r: rule_id(r.id))
    index = {info.id: first_index + i for i, info in enumerate(infos)}
    results = [result(f, index[f.rule]) for f in
               sorted(report.lint.findings, key=lambda f: f.level != "error") if f.rule in index]
    return [descriptor(i) for i in infos], results
