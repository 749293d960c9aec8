"""The `ndjson` reporter: one object a line, tests then one summary."""

from __future__ import annotations

import json
from collections.abc import Callable

from sample import hostile_report, sample_report

from mcptest.reporters.ndjson import render


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.ndjson", render(sample_report()))


def test_one_line_per_test_then_summary() -> None:
    report = sample_report()
    lines = render(report).splitlines()
    objects = [json.loads(line) for line in lines]
    assert len(objects) == len(report.tests) + 1
    assert [o["id"] for o in objects[:-1]] == [t.id for t in report.tests]
    assert all(o["type"] == "test" for o in objects[:-1])
    summary = objects[-1]
    assert summary["type"] == "summary"
    assert summary["counts"] == report.summary.counts.model_dump()
    assert summary["cost_usd"] == report.summary.cost_usd
    assert summary["max_cost_usd"] == 0.05
    assert summary["cache_hits"] == 1
    assert summary["version"] == report.version
    assert [s["name"] for s in summary["servers"]] == ["weather", "broken", "docs"]


def test_test_lines_keep_every_field() -> None:
    report = sample_report()
    first = json.loads(render(report).splitlines()[2])
    first.pop("type")
    assert first == report.tests[2].model_dump(mode="json")


def test_hostile_text_cannot_break_the_framing() -> None:
    report = hostile_report()
    text = render(report)
    assert text.endswith("\n")
    lines = text.split("\n")[:-1]
    assert len(lines) == len(report.tests) + 1
    parsed = [json.loads(line) for line in lines]
    assert parsed[0]["message"] == report.tests[0].message
    assert "\u2028" not in text


def test_empty_report_has_only_the_summary() -> None:
    report = sample_report().model_copy(update={"tests": []})
    lines = render(report).splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["type"] == "summary"


def test_non_finite_numbers_become_null() -> None:
    report = sample_report()
    test = report.tests[1].model_copy(update={"cost_usd": float("nan"),
                                              "args": {"x": float("inf")}})
    summary = report.summary.model_copy(update={"run_agreement": float("nan")})
    lines = render(report.model_copy(update={"tests": [test], "summary": summary})).splitlines()
    strict = [json.loads(line, parse_constant=_reject) for line in lines]
    assert strict[0]["cost_usd"] is None
    assert strict[0]["args"] == {"x": None}
    assert strict[1]["run_agreement"] is None


def _reject(constant: str) -> None:
    raise AssertionError(f"{constant} is not JSON")
