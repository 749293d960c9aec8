"""The `json` reporter and reading saved reports back (`mcptest report run.json`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from sample import hostile_report, sample_report

from mcptest.errors import ReportError
from mcptest.report.io import parse_report, read_report
from mcptest.report.models import Report
from mcptest.reporters.json_report import render


def test_sample_matches_golden(golden: Callable[[str, str], None]) -> None:
    golden("sample.json", render(sample_report()))


def test_output_is_the_canonical_report() -> None:
    report = sample_report()
    assert json.loads(render(report)) == report.model_dump(mode="json")


@pytest.mark.parametrize("make", [sample_report, hostile_report])
def test_round_trip_through_a_file(make: Callable[[], Report], tmp_path: Path) -> None:
    report = make()
    path = tmp_path / "run.json"
    path.write_text(render(report), encoding="utf-8")
    assert read_report(path) == report


def test_missing_file_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(ReportError, match=r"nope\.json: cannot read the file: No such file"):
        read_report(tmp_path / "nope.json")


def test_invalid_json_says_where() -> None:
    with pytest.raises(ReportError, match=r"run\.json:1:2: not valid JSON"):
        parse_report("{oops", "run.json")


def test_not_an_object() -> None:
    with pytest.raises(ReportError, match="expected a JSON object"):
        parse_report("[1, 2]", "run.json")


def test_missing_version() -> None:
    with pytest.raises(ReportError, match="no 'version' field"):
        parse_report('{"tests": []}', "run.json")


def test_unknown_version_is_refused() -> None:
    data = sample_report().model_dump(mode="json")
    data["version"] = 99
    with pytest.raises(ReportError, match=r"report version 99 is not supported .*version 1"):
        parse_report(json.dumps(data), "run.json")


def test_invalid_field_is_listed() -> None:
    data = sample_report().model_dump(mode="json")
    data["tests"][1]["status"] = "exploded"
    with pytest.raises(ReportError, match=r"invalid mcptest report: tests\.1\.status"):
        parse_report(json.dumps(data), "run.json")


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_bytes(b'{"version": 1, "x": "\xff"}')
    with pytest.raises(ReportError, match="not UTF-8"):
        read_report(path)
