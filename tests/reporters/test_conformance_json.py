"""Conformance results in every format: the official suite's `checks.json` shape, a JUnit test
case per check (valid against the windyroad XSD), and SARIF rules that cite the spec."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import jsonschema
import xmlschema

from mcptest.lint.lint_all import LintRun, build_lint_report
from mcptest.report.models import ConformanceCheckRun, LintFinding, Location, Report
from mcptest.reporters.conformance_json import render as render_checks
from mcptest.reporters.junit import render as render_junit
from mcptest.reporters.sarif import render as render_sarif

DATA = Path(__file__).resolve().parents[1] / "data"
CHECK = {  # ConformanceCheck of modelcontextprotocol/conformance src/types.ts
    "type": "object",
    "required": ["id", "name", "description", "status", "timestamp"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string"}, "name": {"type": "string"},
        "description": {"type": "string"}, "timestamp": {"type": "string"},
        "status": {"enum": ["SUCCESS", "FAILURE", "WARNING", "SKIPPED", "INFO"]},
        "specReferences": {"type": "array", "items": {
            "type": "object", "required": ["id"], "additionalProperties": False,
            "properties": {"id": {"type": "string"}, "url": {"type": "string"}}}},
        "details": {"type": "object"}, "metadata": {"type": "object"},
        "errorMessage": {"type": "string"},
        "logs": {"type": "array", "items": {"type": "string"}},
    },
}


def report(servers: tuple[str, ...] = ("api",)) -> Report:
    where = Location(file="suite.yml", line=2, column=5)
    run = LintRun()
    for server in servers:
        run.findings += [
            LintFinding(rule="log-without-level", level="error", server=server, subject="echo",
                        message="tools/call of `echo`: 1 notifications/message without a "
                                "requested log level <b>", location=where),
            LintFinding(rule="annotations", level="error", server=server, subject="echo",
                        message="tool `echo` lacks title", location=where)]
        run.checks += [
            ConformanceCheckRun(rule="log-without-level", server=server, status="failed"),
            ConformanceCheckRun(rule="unsupported-version", server=server, status="passed"),
            ConformanceCheckRun(rule="stdio-stdout", server=server, status="skipped",
                                note="not a stdio server")]
    return build_lint_report(["suite.yml"], [run], "2026-11-28T17:00:00.000Z", 1200.0)


def test_checks_json_has_the_official_shape_and_cites_the_spec() -> None:
    checks: list[dict[str, Any]] = json.loads(render_checks(report()))
    for check in checks:
        jsonschema.validate(check, CHECK)
    by_id = {c["id"]: c for c in checks}
    assert [by_id[i]["status"] for i in ("log-without-level", "unsupported-version",
                                         "stdio-stdout")] == ["FAILURE", "SUCCESS", "SKIPPED"]
    failed = by_id["log-without-level"]
    assert failed["errorMessage"].startswith("tools/call of `echo`")
    assert failed["name"] == "LogWithoutLevel"
    (ref,) = failed["specReferences"]
    assert ref == {"id": "2026-07-28/server/utilities/logging.mdx#per-request-log-level",
                   "url": "https://modelcontextprotocol.io/specification/2026-07-28/server/"
                          "utilities/logging#per-request-log-level"}
    assert by_id["stdio-stdout"]["details"] == {"server": "api", "reason": "not a stdio server"}


def test_several_servers_get_one_check_each() -> None:
    ids = [c["id"] for c in json.loads(render_checks(report(("a", "b"))))]
    assert "log-without-level@a" in ids and "log-without-level@b" in ids
    assert len(ids) == len(set(ids)) == 6


def test_a_report_without_checks_is_an_empty_list() -> None:
    assert json.loads(render_checks(build_lint_report([], [LintRun()], "x", 0.0))) == []


def test_junit_has_a_case_per_check_and_per_other_failing_rule() -> None:
    xml = render_junit(report())
    xmlschema.XMLSchema(str(DATA / "junit.xsd")).validate(xml)
    (suite,) = ET.fromstring(xml).findall("testsuite")
    cases = {(c.get("classname"), c.get("name")): c for c in suite.findall("testcase")}
    assert set(cases) == {("conformance.api", "log-without-level"),
                          ("conformance.api", "unsupported-version"),
                          ("conformance.api", "stdio-stdout"), ("lint.api", "annotations")}
    assert cases[("conformance.api", "log-without-level")].find("failure") is not None
    assert cases[("conformance.api", "stdio-stdout")].find("skipped") is not None
    assert list(cases[("conformance.api", "unsupported-version")]) == []
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("4", "2", "1")


def test_sarif_rules_of_conformance_checks_name_their_spec_section() -> None:
    log = json.loads(render_sarif(report()))
    rules = {r["id"]: r for r in log["runs"][0]["tool"]["driver"]["rules"]}
    rule = rules["mcptest/lint/log-without-level"]
    assert rule["properties"]["spec"] == "2026-07-28/server/utilities/logging.mdx" \
                                         "#per-request-log-level"
    assert rule["helpUri"].endswith("docs/conformance.md#log-without-level")
    assert "Spec: 2026-07-28/server/utilities/logging.mdx" in rule["fullDescription"]["text"]
    assert "conformance" not in rules["mcptest/lint/annotations"]["properties"]["tags"]
    jsonschema.validate(log, json.loads((DATA / "sarif-schema-2.1.0.json").read_text()))


def test_the_cli_writes_the_format(tmp_path: Path) -> None:
    from mcptest.cli.main import main

    saved = tmp_path / "lint.json"
    saved.write_text(report().model_dump_json(), encoding="utf-8")
    out = tmp_path / "checks.json"
    assert main(["report", str(saved), "--reporter", "conformance", "--output", str(out)]) == 0
    assert [c["status"] for c in json.loads(out.read_text(encoding="utf-8"))] == [
        "FAILURE", "SUCCESS", "SKIPPED"]
