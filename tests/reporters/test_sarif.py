"""The `sarif` reporter: the official 2.1.0 schema, Microsoft's SARIF Multitool with GitHub's
ingestion rules, and the properties code scanning relies on (rules, levels, fingerprints)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from sample import big_report, hostile_report, sample_report

from mcptest.report.models import Report
from mcptest.reporters.sarif import MAX_RESULTS, render
from mcptest.reporters.sarif_findings import RULES

SCHEMA = Path(__file__).resolve().parents[1] / "data" / "sarif-schema-2.1.0.json"
REPORTS = [sample_report(), hostile_report(), big_report(60)]
IDS = ["sample", "hostile", "big"]


def _log(report: Report) -> dict[str, Any]:
    return json.loads(render(report))  # type: ignore[no-any-return]


def _broken_log() -> dict[str, Any]:
    """A log with faults GitHub and the SARIF spec reject: the negative control."""
    log = _log(sample_report())
    result = log["runs"][0]["results"][0]
    result["message"] = {"text": ""}
    result["ruleIndex"] = -1
    return log


@pytest.fixture(scope="module")
def multitool_findings(
    sarif_multitool: Path, tmp_path_factory: pytest.TempPathFactory
) -> dict[str, list[dict[str, Any]]]:
    """`Sarif.Multitool validate --rule-kind Gh;Sarif` findings per file, in one invocation
    (the tool takes seconds to start)."""
    folder = tmp_path_factory.mktemp("sarif")
    files = {name: render(report) for name, report in zip(IDS, REPORTS, strict=True)}
    files["broken"] = json.dumps(_broken_log())
    for name, text in files.items():
        (folder / f"{name}.sarif").write_text(text, encoding="utf-8")
    out = folder / "validation.json"
    done = subprocess.run(
        [str(sarif_multitool), "validate", *(str(folder / f"{n}.sarif") for n in files),
         "--rule-kind", "Gh;Sarif", "--output", str(out), "--log", "ForceOverwrite"],
        capture_output=True, text=True, timeout=300, check=False,
    )
    assert out.is_file(), f"multitool wrote no output:\n{done.stdout[-2000:]}{done.stderr}"
    found: dict[str, list[dict[str, Any]]] = {name: [] for name in files}
    for result in json.loads(out.read_text(encoding="utf-8"))["runs"][0].get("results", []):
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        found[uri.rsplit("/", 1)[-1].removesuffix(".sarif")].append(result)
    return found


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.sarif", render(sample_report()))


@pytest.mark.parametrize("report", REPORTS, ids=IDS)
def test_valid_against_the_official_schema(report: Report) -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(_log(report))


@pytest.mark.slow
@pytest.mark.xdist_group("sarif-multitool")  # one worker: the module fixture (`multitool_findings`, ~3 s) is built once, not on every worker
@pytest.mark.parametrize("name", IDS)
def test_multitool_finds_no_errors_or_warnings(
    multitool_findings: dict[str, list[dict[str, Any]]], name: str
) -> None:
    problems = [r for r in multitool_findings[name]
                if r.get("level", "warning") in ("error", "warning")]
    assert problems == [], [(p["ruleId"], p["message"]) for p in problems]


@pytest.mark.slow
def test_multitool_does_flag_a_broken_log(
    multitool_findings: dict[str, list[dict[str, Any]]],
) -> None:
    rule_ids = {r["ruleId"] for r in multitool_findings["broken"]}
    assert {"GH1015", "SARIF2004"} <= rule_ids


def _walk(value: Any, path: str = "") -> list[tuple[str, Any]]:
    found = [(path, value)]
    if isinstance(value, dict):
        for k, v in value.items():
            found += _walk(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += _walk(v, f"{path}[{i}]")
    return found


def test_no_sarif_om_defaults_leak() -> None:
    nodes = _walk(_log(sample_report()))
    keys = {p.rsplit(".", 1)[-1] for p, _ in nodes}
    assert not keys & {"rank", "kind", "language", "newlineSequences", "contents", "index",
                       "byteOffset", "charOffset"}
    assert not [p for p, v in nodes if v == -1]
    assert not [p for p, v in nodes if v in ({}, []) and not p.endswith(".results")]
    assert not [p for p, v in nodes if v is None or v == ""]


def test_driver_and_rules() -> None:
    log = _log(sample_report())
    assert log["$schema"] == "https://json.schemastore.org/sarif-2.1.0.json"
    assert log["version"] == "2.1.0"
    driver = log["runs"][0]["tool"]["driver"]
    assert (driver["name"], driver["version"]) == ("mcptest", "0.1.0")
    assert driver["informationUri"].startswith("https://")
    ids = [r["id"] for r in driver["rules"]]
    assert ids == sorted(ids)
    assert set(ids) == {
        "mcptest/budget", "mcptest/eval", "mcptest/exact", "mcptest/judge-deferred",
        "mcptest/jury-escalated", "mcptest/not-yet-available", "mcptest/server-not-ready",
        "mcptest/tool-error",
    }
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"] and rule["fullDescription"]["text"]
        assert rule["help"]["text"] and rule["help"]["markdown"]
        assert rule["defaultConfiguration"]["level"] == RULES[rule["id"]][2]


def test_results_levels_locations_and_rule_index() -> None:
    log = _log(sample_report())
    run = log["runs"][0]
    rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
    by_test = {r["properties"]["testId"].split("::")[-1]: r for r in run["results"]}
    assert len(by_test) == len(run["results"]) == 8
    levels = {name: r["level"] for name, r in by_test.items()}
    assert levels == {
        "forecast-units": "error", "alerts-error": "error", "ping": "error",
        "summary-quality[model=openai/gpt-4o-mini]": "error",
        "forecast-detail": "warning", "forecast-tone": "warning",
        "forecast-stream": "warning", "forecast-jury": "warning",
    }
    assert [r["level"] for r in run["results"]][:4] == ["error"] * 4
    for result in run["results"]:
        assert rules[result["ruleIndex"]] == result["ruleId"]
    units = by_test["forecast-units"]
    loc = units["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"] == {"uri": "suites/weather.yaml", "uriBaseId": "%SRCROOT%"}
    assert loc["region"] == {"startLine": 22, "startColumn": 9}, "the assertion's line"
    assert by_test["alerts-error"]["locations"][0]["physicalLocation"]["region"]["startLine"] == 40
    assert by_test["ping"]["ruleId"] == "mcptest/server-not-ready"
    assert "expected 'celsius', got 'fahrenheit'" in units["message"]["text"]


def test_run_properties_carry_cost_and_counts() -> None:
    props = _log(sample_report())["runs"][0]["properties"]
    assert props["costUsd"] == 0.0123
    assert props["maxCostUsd"] == 0.05
    assert props["cacheHits"] == 1
    assert props["deferred"] == 1
    assert props["counts"]["not_yet_available"] == 1
    assert props["resultsOmitted"] == 0


def _fingerprints(report: Report) -> dict[str, str]:
    return {r["properties"]["testId"]: r["partialFingerprints"]["primaryLocationLineHash"]
            for r in _log(report)["runs"][0]["results"]}


def test_fingerprints_are_stable_and_ignore_the_message() -> None:
    report = sample_report()
    first = _fingerprints(report)
    assert first == _fingerprints(sample_report())
    assert len(set(first.values())) == len(first)
    reworded = report.model_copy(update={"tests": [
        t.model_copy(update={"message": f"{t.message} (run 2)", "duration_ms": 1.0})
        for t in report.tests
    ]})
    assert _fingerprints(reworded) == first


def test_fingerprint_changes_when_the_test_moves_to_another_rule() -> None:
    report = sample_report()
    tests = list(report.tests)
    tests[3] = tests[3].model_copy(update={"gap": "protocol"})
    moved = _fingerprints(report.model_copy(update={"tests": tests}))
    assert moved[tests[3].id] != _fingerprints(report)[tests[3].id]


def test_results_are_capped_and_the_rest_counted() -> None:
    base = sample_report().tests[1]
    extra = MAX_RESULTS + 7
    tests = [
        base.model_copy(update={"id": f"{base.id}-{i}", "name": f"n{i}"}) for i in range(extra)
    ]
    report = sample_report()
    report = report.model_copy(update={"tests": [*report.tests, *tests]})
    run = _log(report)["runs"][0]
    assert len(run["results"]) == MAX_RESULTS
    assert run["properties"]["resultsOmitted"] == extra + 8 - MAX_RESULTS
    assert all(r["level"] == "error" for r in run["results"]), "errors are kept first"


def test_all_passed_gives_an_empty_result_list() -> None:
    report = sample_report()
    passed = [t for t in report.tests if t.status == "passed" and t.name != "forecast-jury"]
    run = _log(report.model_copy(update={"tests": passed}))["runs"][0]
    assert run["results"] == []
    assert run["tool"]["driver"]["rules"] == []


def test_non_finite_numbers_are_left_out() -> None:
    report = sample_report()
    test = report.tests[1].model_copy(update={"cost_usd": float("nan")})
    summary = report.summary.model_copy(update={"run_agreement": float("inf")})
    text = render(report.model_copy(update={"tests": [test], "summary": summary}))
    log = json.loads(text, parse_constant=lambda c: pytest.fail(f"{c} is not JSON"))
    assert "runAgreement" not in log["runs"][0]["properties"]
    assert "costUsd" not in log["runs"][0]["results"][0]["properties"]
