"""Each reporter shows a judged row's calibration (docs/calibration.md): HTML, the PR comment,
the terminal and SARIF properties."""

from __future__ import annotations

import json

from sample import sample_report

from mcptest.report.models import CalibrationNote, Report
from mcptest.reporters import get_reporter

ADVISORY = CalibrationNote(state="stale", advisory=True, record="judge.calibration.json",
                           verdict="failed", reason="the calibration record is stale <b>",
                           labels=60, kappa=0.9, min_agreement=0.8)
CALIBRATED = CalibrationNote(state="calibrated", advisory=False, record="judge.calibration.json",
                             labels=60, kappa=0.84, alpha=0.85, accuracy=0.93,
                             false_pass_rate=0.05, false_fail_rate=0.08)


def _with_calibration() -> Report:
    """The sample's deferred judge becomes an advisory verdict; its passing judge calibrated."""
    report = sample_report()
    tests = []
    for t in report.tests:
        rows = [a.model_copy(update={"calibration": ADVISORY if a.status == "deferred"
                                     else CALIBRATED})
                if a.matcher == "llm-judge" and a.status in ("deferred", "passed") else a
                for a in t.assertions]
        tests.append(t.model_copy(update={"assertions": rows}))
    summary = report.summary.model_copy(update={"uncalibrated": 1})
    return report.model_copy(update={"tests": tests, "summary": summary})


def test_html_shows_each_judged_rows_calibration() -> None:
    html = get_reporter("html")(_with_calibration())
    assert "calibrated: κ 0.84 · α 0.85 · 60 labels · false-fail 8% · false-pass 5%" in html
    assert "uncalibrated (stale, advisory): the calibration record is stale &lt;b&gt;" in html
    assert "1 uncalibrated (advisory)" in html


def test_the_pr_comment_and_terminal_show_the_advisory_verdict() -> None:
    report = _with_calibration()
    comment = get_reporter("md")(report)
    assert "uncalibrated (stale, advisory)" in comment and "<b>" not in comment
    assert "1 uncalibrated (advisory)" in comment
    pretty = get_reporter("pretty")(report)
    assert "uncalibrated (stale, advisory)" in pretty


def test_sarif_carries_the_figures_as_properties() -> None:
    log = json.loads(get_reporter("sarif")(_with_calibration()))
    run = log["runs"][0]
    assert run["properties"]["uncalibrated"] == 1
    advisory = [r for r in run["results"] if r["ruleId"] == "mcptest/judge-advisory"]
    assert len(advisory) == 1
    assert advisory[0]["properties"]["calibration"] == {
        "state": "stale", "advisory": True, "record": "judge.calibration.json", "labels": 60,
        "kappa": 0.9}
