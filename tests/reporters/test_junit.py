"""The `junit` reporter, validated against the windyroad JUnit XSD with xmlschema."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
import xmlschema
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sample import big_report, hostile_report, sample_report

from mcptest.report.models import Report
from mcptest.reporters.junit import render, xml_text

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture(scope="module")
def schema() -> xmlschema.XMLSchema:
    return xmlschema.XMLSchema(str(DATA / "junit.xsd"))


def _suites(report: Report) -> list[ET.Element]:
    return ET.fromstring(render(report)).findall("testsuite")


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.junit.xml", render(sample_report()))


@pytest.mark.parametrize(
    "report",
    [sample_report(), hostile_report(), big_report(60),
     sample_report().model_copy(update={"tests": []})],
    ids=["sample", "hostile", "big", "empty"],
)
def test_valid_against_the_junit_xsd(schema: xmlschema.XMLSchema, report: Report) -> None:
    schema.validate(render(report))


def test_the_xsd_rejects_what_it_should(schema: xmlschema.XMLSchema) -> None:
    bad = render(sample_report()).replace('hostname="localhost" ', "", 1)
    assert not schema.is_valid(bad)


def test_one_testsuite_per_file_and_server() -> None:
    names = [s.get("name") for s in _suites(sample_report())]
    assert names == [
        "suites/weather.yaml [weather]",
        "suites/broken.yaml [broken]",
        "suites/evals.yaml [docs]",
        "suites/agents.yaml [weather]",
    ]


def test_counts_per_suite_match_the_report() -> None:
    report = sample_report()
    suites = _suites(report)
    assert sum(int(s.get("tests", "0")) for s in suites) == report.summary.counts.total
    assert sum(int(s.get("failures", "0")) for s in suites) == report.summary.counts.failed
    assert sum(int(s.get("errors", "0")) for s in suites) == report.summary.counts.error
    c = report.summary.counts
    assert sum(int(s.get("skipped", "0")) for s in suites) == c.skipped + c.not_yet_available
    cases = [case for s in suites for case in s.findall("testcase")]
    assert len(cases) == c.total
    assert len([x for x in cases if x.find("failure") is not None]) == c.failed
    assert len([x for x in cases if x.find("error") is not None]) == c.error


def test_each_status_maps_to_its_element() -> None:
    weather = _suites(sample_report())[0]
    cases = {c.get("name"): c for c in weather.findall("testcase")}
    failure = cases["forecast-units"].find("failure")
    assert failure is not None
    assert failure.get("type") == "mcptest/exact"
    assert failure.get("message") == "expected 'celsius', got 'fahrenheit'"
    assert "units must be metric" in (failure.text or "")
    assert cases["alerts-error"].find("error") is not None
    skipped = cases["forecast-detail"].find("skipped")
    assert skipped is not None
    assert (skipped.get("message") or "").startswith("budget: ")
    nya = cases["forecast-stream"].find("skipped")
    assert nya is not None
    assert (nya.get("message") or "").startswith("NotYetAvailable")
    assert len(cases["forecast-tone"]) == 0, "a deferral is not a failure"
    notes = weather.findtext("system-out") or ""
    assert "DEFERRED forecast-tone" in notes
    assert "ESCALATED forecast-jury" in notes
    assert "CACHED forecast-ok" in notes


def test_cost_and_judge_data_are_properties() -> None:
    props = {p.get("name"): p.get("value") for p in _suites(sample_report())[0].iter("property")}
    assert props["mcptest.run.cost_usd"] == "0.012300"
    assert props["mcptest.run.max_cost_usd"] == "0.050000"
    assert props["mcptest.run.deferred"] == "1"
    assert props["forecast-jury.cost_usd"] == "0.001800"
    assert props["forecast-jury.llm-jury.agreement"] == "0.000"
    assert props["forecast-jury.llm-jury.escalate"] == "true"
    assert props["forecast-ok.cache_hits"] == "1"


def test_eval_cells_and_agent_rows_are_testcases() -> None:
    names = [c.get("name") for s in _suites(sample_report()) for c in s.findall("testcase")]
    assert "summary-quality[model=openai/gpt-4o-mini]" in names
    assert "trip-planner[model=openai/gpt-4o-mini]" in names


def test_forbidden_characters_are_stripped() -> None:
    text = render(hostile_report())
    for ch in ("\x00", "\x07", "\x1b"):
        assert ch not in text
    ET.fromstring(text)  # parses as XML 1.0
    assert xml_text("a\x00b\x1b[31mc\ud800d\ufffe") == "abcd"


def test_markup_in_text_stays_text() -> None:
    root = ET.fromstring(render(hostile_report()))
    assert root.find(".//script") is None
    case = root.find(".//testcase")
    assert case is not None
    assert case.get("name") == "evil | `name` <i>@someone</i>"


def test_timestamp_has_no_zone() -> None:
    assert _suites(sample_report())[0].get("timestamp") == "2026-11-22T02:00:00"


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(max_size=200))
def test_any_text_keeps_the_xml_valid(schema: xmlschema.XMLSchema, text: str) -> None:
    report = sample_report()
    tests = [t.model_copy(update={"name": text or "x", "message": text, "server_stderr": text})
             for t in report.tests]
    schema.validate(render(report.model_copy(update={"tests": tests})))
