"""A report read back is checked, not believed: strict types, ranges, rows, unique ids, and the
summary counted again from the rows (docs/reports.md, "Reading reports back")."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from reporters.sample import sample_report

from mcptest.errors import ReadBackError
from mcptest.report.io import MAX_REPORT_BYTES, ValuesBudget, parse_report, read_report


def saved() -> dict[str, Any]:
    return json.loads(sample_report().model_dump_json())


def refusal(data: dict[str, Any] | str) -> str:
    with pytest.raises(ReadBackError) as e:
        parse_report(data if isinstance(data, str) else json.dumps(data), "run.json")
    return str(e.value)


def test_the_sample_reads_back_unchanged() -> None:
    report = sample_report()
    assert parse_report(report.model_dump_json(), "run.json") == report


@pytest.mark.parametrize(("change", "expected"), [
    (lambda d: d.update(version=True), "run.json: version: 'version' must be the integer 1, "
                                       "not bool"),
    (lambda d: d["summary"]["counts"].update(failed=-3),
     "run.json: invalid mcptest report: summary.counts.failed: Input should be greater than or "
     "equal to 0"),
    (lambda d: d["tests"][0].update(repeat={"runs": 2, "passed": 5, "pass_rate": 1.0,
                                            "min_pass_rate": 1.0, "met": True}),
     "tests.0.repeat: Value error, more repetitions passed than ran (passed > runs)"),
    (lambda d: d.update(shard={"index": 1, "count": 1e10}),
     "shard.count: Input should be a valid integer"),
    (lambda d: d.update(shard={"index": 3, "count": 2}),
     "shard: Value error, the shard index is larger than the shard count"),
    (lambda d: d["summary"].update(gaps={"</details><img src=x>": 1}),
     "summary.gaps.<key>.<key>: Input should be 'transport'"),
    (lambda d: d["tests"][0].update({"\x1b]52;c;owned\x07": 1}),
     "tests.0.<key>: Extra inputs are not permitted"),
    (lambda d: d["tests"].append(d["tests"][0]),
     f"run.json: tests.{len(saved()['tests'])}.id: the same id as tests.0; ids are unique"),
])
def test_values_are_not_taken_on_faith(change: Any, expected: str) -> None:
    data = saved()
    change(data)
    message = refusal(data)
    assert expected in message
    assert "\x1b" not in message and "<img" not in message


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
def test_non_finite_numbers_are_refused_where_they_are(number: str) -> None:
    text = sample_report().model_dump_json(indent=2).replace(
        '"cost_usd": 0.0123', f'"cost_usd": {number}', 1)
    assert number in text
    message = refusal(text)
    assert message.startswith("run.json:")
    assert "NaN and Infinity are not JSON numbers" in message or "out of range" in message


def test_the_exit_code_is_counted_again_from_the_rows() -> None:
    data = saved()
    for t in data["tests"]:
        t["status"] = "failed"
    for s in data["servers"]:
        s["status"] = "ready"
    data["summary"].update(exit_code=256, counts={"total": 1, "passed": 1})
    report = parse_report(json.dumps(data), "run.json")
    assert report.summary.exit_code == 1
    assert report.summary.counts.failed == report.summary.counts.total == len(data["tests"])


def test_deep_nesting_is_refused_before_parsing() -> None:
    data = saved()
    data["tests"][0]["args"] = "DEEP"
    text = json.dumps(data).replace('"DEEP"', "[" * 5000 + "]" * 5000)
    assert "nesting is too deep (more than 100 levels" in refusal(text)


def test_special_files_are_refused_without_reading_them(tmp_path: Path) -> None:
    fifo = tmp_path / "run.json"
    os.mkfifo(fifo)
    with pytest.raises(ReadBackError, match="not a regular file"):
        read_report(fifo)
    if Path("/dev/zero").exists():
        with pytest.raises(ReadBackError, match="not a regular file"):
            read_report("/dev/zero")


def test_a_file_past_the_bound_is_refused_by_its_size(tmp_path: Path) -> None:
    big = tmp_path / "run.json"
    with big.open("wb") as f:
        f.truncate(MAX_REPORT_BYTES + 1)  # sparse: the size alone refuses it
    with pytest.raises(ReadBackError, match="the file is larger than 64 MiB"):
        read_report(big)


def test_shards_share_one_budget_of_values(tmp_path: Path) -> None:
    path = tmp_path / "run.json"
    path.write_text(sample_report().model_dump_json(), encoding="utf-8")
    budget = ValuesBudget()
    read_report(path, budget=budget)
    once = budget.used
    read_report(path, budget=budget)
    assert budget.used == 2 * once > 0


def test_a_comparison_that_fails_after_the_run_keeps_the_reports(tmp_path: Path) -> None:
    """Were a baseline to pass the reader and still break the comparison, the run's report
    comes back marked as an internal error (exit 70, written), not lost to a traceback."""
    from mcptest.api.flow import apply_baseline
    from mcptest.api.options import Options
    from mcptest.report.models import RepeatStats

    new = sample_report()
    broken = RepeatStats.model_construct(runs=2, passed=5, pass_rate=1.0, min_pass_rate=1.0,
                                         met=True)  # what the reader refuses
    old = new.model_copy(update={"tests": [t.model_copy(update={"repeat": broken})
                                           for t in new.tests]})
    report = apply_baseline(new, old, Options(baseline=tmp_path / "base.json"))
    assert report.summary.exit_code == 70
    assert (report.summary.internal_error or "").startswith("comparing with the baseline:")
    assert report.tests == new.tests
