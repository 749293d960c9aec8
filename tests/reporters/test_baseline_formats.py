"""JUnit, TAP, SARIF and the terminal carry the baseline classification and the flaky outcome,
and stay valid against their schemas while doing it."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import xmlschema
from sample import sample_report

from mcptest.compare.attach import with_baseline
from mcptest.compare.gate_options import CompareOptions
from mcptest.report.models import RepeatStats, Report
from mcptest.reporters import junit, pretty, sarif, tap

DATA = Path(__file__).resolve().parents[1] / "data"


def compared() -> Report:
    """The sample against a baseline where everything passed, one row made flaky (unmet)."""
    new = sample_report()
    flaky = new.tests[0].model_copy(update={
        "status": "flaky", "gap": "flaky", "message": "flaky: passed 2 of 3 repetitions",
        "repeat": RepeatStats(runs=3, passed=2, pass_rate=0.666667, min_pass_rate=1.0,
                              met=False)})
    new = new.model_copy(update={"tests": [flaky, *new.tests[1:]]})
    old = new.model_copy(update={"tests": [t.model_copy(update={"status": "passed",
                                                                 "repeat": None})
                                           for t in new.tests]})
    return with_baseline(new, old, CompareOptions(), source="base.json")


def test_junit_marks_unmet_flaky_as_failure_and_names_the_change() -> None:
    report = compared()
    text = junit.render(report)
    xmlschema.XMLSchema(str(DATA / "junit.xsd")).validate(text)
    root = ET.fromstring(text)
    props = {p.get("name"): p.get("value") for p in root.iter("property")}
    first = report.tests[0].name
    assert props[f"{first}.baseline"] == "newly_flaky"
    assert props[f"{first}.pass_rate"] == "2/3"
    failed = [t.name for t in report.tests if t.status == "failed"]
    assert props[f"{failed[0]}.baseline"] == "regressed"
    case = next(c for c in root.iter("testcase") if c.get("name") == first)
    assert case.find("failure") is not None


def test_tap_diagnostics_carry_the_change() -> None:
    text = tap.render(compared())
    assert text.splitlines()[2].startswith("not ok 1 - ")
    assert '  baseline: "newly_flaky"' in text and '  baseline: "regressed"' in text
    assert '  severity: "flaky"' in text


def test_sarif_baseline_state_and_flaky_rule() -> None:
    doc = json.loads(sarif.render(compared()))
    jsonschema.validate(doc, json.loads((DATA / "sarif-schema-2.1.0.json").read_text()))
    results = doc["runs"][0]["results"]
    by_change = {r["properties"].get("baselineChange"): r for r in results}
    assert by_change["regressed"]["baselineState"] == "new"
    assert by_change["newly_flaky"]["ruleId"] == "mcptest/flaky"
    assert by_change["newly_flaky"]["level"] == "error"


def test_terminal_names_the_regressions() -> None:
    text = pretty.render(compared())
    assert "against base.json:" in text and "regressed (" in text and "? FLAKY" in text
