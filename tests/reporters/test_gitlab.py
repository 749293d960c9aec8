"""The `gitlab` reporter: a Code Quality issue array."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from sample import hostile_report, sample_report

from mcptest.report.models import Report
from mcptest.reporters.gitlab import render


def _issues(report: Report) -> list[dict[str, Any]]:
    return json.loads(render(report))  # type: ignore[no-any-return]


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.gitlab.json", render(sample_report()))


def test_required_fields() -> None:
    for issue in _issues(sample_report()) + _issues(hostile_report()):
        assert isinstance(issue["description"], str) and issue["description"]
        assert issue["check_name"].startswith("mcptest/")
        assert len(issue["fingerprint"]) == 64
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(issue["location"]["path"], str)
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert "\n" not in issue["description"]


def test_severity_per_status() -> None:
    report = sample_report()
    severity = {t.name: None for t in report.tests}
    for issue in _issues(report):
        name = issue["content"]["body"].split("`")[1].split("::")[-1]
        severity[name] = issue["severity"]
    assert severity == {
        "forecast-ok": None, "forecast-units": "major", "forecast-jury": "info",
        "alerts-error": "critical", "forecast-tone": "info", "forecast-detail": "minor",
        "forecast-stream": "minor", "ping": "critical",
        "summary-quality[model=openai/gpt-4o-mini]": "major",
        "summary-quality[model=anthropic/claude-haiku-4-5]": None,
        "trip-planner[model=openai/gpt-4o-mini]": None,
    }


def test_fingerprint_is_sha256_of_rule_file_line_and_test_name() -> None:
    issue = next(i for i in _issues(sample_report()) if i["check_name"] == "mcptest/exact")
    key = "\0".join(["mcptest/exact", "suites/weather.yaml", "22", "forecast-units"])
    assert issue["fingerprint"] == hashlib.sha256(key.encode()).hexdigest()
    assert issue["location"] == {"path": "suites/weather.yaml", "lines": {"begin": 22}}


def test_stable_across_two_runs_with_other_messages() -> None:
    first = _issues(sample_report())
    report = sample_report()
    second_run = report.model_copy(update={"tests": [
        t.model_copy(update={"message": "different wording", "duration_ms": 99.0})
        for t in report.tests
    ]})
    second = _issues(second_run)
    assert [i["fingerprint"] for i in first] == [i["fingerprint"] for i in second]
    assert render(sample_report()) == render(sample_report())


def test_two_tests_on_one_line_stay_apart() -> None:
    report = sample_report()
    cells = [t for t in report.tests if t.kind == "eval"]
    both_failed = [c.model_copy(update={"status": "failed", "gap": "judgment"}) for c in cells]
    issues = _issues(report.model_copy(update={"tests": both_failed}))
    assert len(issues) == 2
    assert issues[0]["location"] == issues[1]["location"]
    assert issues[0]["fingerprint"] != issues[1]["fingerprint"]


def test_all_passed_is_an_empty_array() -> None:
    report = sample_report()
    passed = [t for t in report.tests if t.status == "passed" and t.name != "forecast-jury"]
    assert _issues(report.model_copy(update={"tests": passed})) == []
