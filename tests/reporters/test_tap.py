"""The `tap` reporter, parsed by npm's tap-parser (the node-tap project's own parser)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sample import big_report, hostile_report, sample_report

from mcptest.report.models import Report
from mcptest.reporters.tap import render


def _parse(tap_parser: Path, text: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """(final results, test points) as tap-parser reads `text`."""
    done = subprocess.run([str(tap_parser), "-j", "0"], input=text, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.stdout, done.stderr
    events = json.loads(done.stdout)
    complete = [e[1] for e in events if e[0] == "complete"]
    assert len(complete) == 1
    points = [e[1] for e in events if e[0] == "assert"]
    return complete[0], points


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.tap", render(sample_report()))


def test_starts_with_version_and_plan() -> None:
    lines = render(sample_report()).splitlines()
    assert lines[:2] == ["TAP version 14", "1..11"]


@pytest.mark.parametrize("report", [sample_report(), hostile_report(), big_report(48)],
                         ids=["sample", "hostile", "big"])
def test_tap_parser_counts_match_the_report(tap_parser: Path, report: Report) -> None:
    result, points = _parse(tap_parser, render(report))
    c = report.summary.counts
    assert result["count"] == c.total == len(points)
    assert result["plan"]["start"] == 1
    assert result["plan"]["end"] == c.total
    assert result["skip"] == c.skipped
    assert result["todo"] == c.not_yet_available
    assert result["pass"] - result["skip"] == c.passed + c.deferred
    assert result["fail"] - result["todo"] == c.failed + c.error
    assert not any(p.get("tapError") for p in points)
    assert [p["id"] for p in points] == list(range(1, c.total + 1))


def test_diagnostics_parse_back_to_the_report_values(tap_parser: Path) -> None:
    report = sample_report()
    _, points = _parse(tap_parser, render(report))
    by_name = {p["name"]: p for p in points}
    diag = by_name["forecast-units"]["diag"]
    assert diag["severity"] == "fail"
    assert diag["at"] == {"file": "suites/weather.yaml", "line": 18, "column": 5}
    assert diag["assertions"][0]["expected"] == "celsius"
    assert diag["assertions"][0]["actual"] == "fahrenheit"
    jury = by_name["forecast-jury"]["diag"]["judges"][0]
    assert jury["escalate"] is True
    assert [v["model"] for v in jury["votes"]][1:3] == [
        "openai/gpt-4o-mini", "mistral/mistral-small-latest"]
    assert by_name["forecast-tone"]["diag"]["status"] == "deferred"
    assert "diag" not in by_name["forecast-ok"] or not by_name["forecast-ok"]["diag"]


def test_hostile_text_cannot_forge_directives_or_keys(tap_parser: Path) -> None:
    report = hostile_report()
    _, points = _parse(tap_parser, render(report))
    first, second, third = points
    assert first["name"] == report.tests[0].name
    assert first["diag"]["message"].startswith(report.tests[0].message[:200])
    assert set(first["diag"]) >= {"status", "message", "assertions", "server_stderr"}
    assert "error" not in first["diag"]
    assert second["name"] == "skip # TODO not really"
    assert second["skip"] and not second["todo"]
    assert third["name"] == "err newline"


def test_cost_cache_and_deferrals_are_shown() -> None:
    text = render(sample_report())
    assert "# cost $0.0123 of $0.0500 cap; judge calls 8; cache hits 1; deferred 1" in text
    assert "# budget cap reached" in text


@settings(max_examples=60, deadline=None)
@given(text=st.text(max_size=120))
def test_any_text_keeps_one_line_per_test_point(text: str) -> None:
    report = sample_report()
    tests = [t.model_copy(update={"name": text, "message": text}) for t in report.tests]
    lines = render(report.model_copy(update={"tests": tests})).split("\n")
    points = [ln for ln in lines if ln.startswith(("ok ", "not ok "))]
    assert len(points) == len(tests)
    for line in lines[2:-1]:
        assert line.startswith(("ok ", "not ok ", "  ", "# ")), repr(line)
    inside = False
    for line in lines:
        if line == "  ---":
            inside = True
        elif line == "  ...":
            inside = False
        elif inside:
            key, _, value = line[2:].partition(": ")
            assert key.isidentifier() and value, repr(line)
            json.loads(value)
