"""Judged rates beside their corrected values (docs/statistics.md): computed from the rows
(mcptest.report.corrections), and shown by the terminal, the PR comment, the HTML report and
the JSON; a judge without a record says why it has none; a baseline's change corrected."""

from __future__ import annotations

import json

import pytest

from mcptest.compare.attach import with_baseline
from mcptest.compare.gate_options import CompareOptions
from mcptest.report.build import JudgeTotals, build_report
from mcptest.report.corrections import judge_corrections, row_corrections
from mcptest.report.models import (
    AssertionResult,
    CalibrationNote,
    JudgeDetail,
    JudgeErrorCounts,
    JudgeVote,
    Location,
    Report,
)
from mcptest.report.models import (
    TestResult as Row,
)
from mcptest.reporters import get_reporter
from mcptest.stats.judge_correction import JudgeErrors, correct_rate, corrected_difference

RECORD = "judges/tone <b>.calibration.json"
ERRORS = JudgeErrorCounts(human_fail=40, judge_fail=28, human_pass=40, judge_pass=38)


def _note(state: str = "calibrated") -> CalibrationNote:
    return CalibrationNote(state=state, advisory=state != "calibrated", record=RECORD,  # type: ignore[arg-type]
                           labels=80, kappa=0.65, errors=ERRORS)


def _judged(passed: bool, note: CalibrationNote | None) -> AssertionResult:
    return AssertionResult(
        index=0, target="result", matcher="llm-judge", status="passed" if passed else "failed",
        judge=JudgeDetail(kind="llm-judge", score=0.9 if passed else 0.2, threshold=0.7),
        calibration=note)


def _row(i: int, passes: list[bool], note: CalibrationNote | None) -> Row:
    runs = [Row(id=f"s::tool::t{i}", name=f"t{i}", suite_file="s.yaml",
                       location=Location(file="s.yaml", line=i + 1),
                       status="passed" if p else "failed", assertions=[_judged(p, note)])
            for p in passes]
    if len(runs) == 1:
        return runs[0]
    return runs[0].model_copy(update={"repetitions": runs, "status": "flaky"})


def _report(pattern: list[list[bool]], note: CalibrationNote | None = None) -> Report:
    note = note or _note()
    tests = [_row(i, p, note) for i, p in enumerate(pattern)]
    return build_report(suites=["s.yaml"], tests=tests, servers=[], started_at="x",
                        finished_at="y", duration_ms=1.0, judge=JudgeTotals())


# 20 tests: 12 judged passes once, 6 failures once, 2 repeated ones passing 3 of 5
PATTERN = [[True]] * 12 + [[False]] * 6 + [[True, False, True, False, True]] * 2


def test_each_judge_over_the_run_counts_a_test_once() -> None:
    report = _report(PATTERN)
    [j] = report.summary.corrected
    assert j.record == RECORD and j.tests == 20
    assert j.judged_passed == pytest.approx(12 + 2 * 0.6)
    want = correct_rate(13.2 / 20, 20, JudgeErrors(40, 28, 40, 38))
    assert want is not None and j.corrected is not None
    assert j.corrected.raw_rate == pytest.approx(0.66)
    assert j.corrected.rate == pytest.approx(want.rate, abs=1e-6)
    assert (j.corrected.ci95.low, j.corrected.ci95.high) == pytest.approx((want.low, want.high),
                                                                          abs=1e-6)
    # the lenient judge (it passes 30% of what people fail) overstates the rate
    assert j.corrected.rate < j.corrected.raw_rate
    # a repeated row's own: its five verdicts
    row = report.tests[-1]
    assert [(c.judged_passed, c.judged) for c in row.corrected] == [(3, 5)]
    # read back: the report says what it said
    again = Report.model_validate_json(report.model_dump_json())
    assert again.summary.corrected == report.summary.corrected


def test_a_judge_without_a_usable_record_says_why() -> None:
    plain = _report([[True], [False]], note=None)
    tests = [t.model_copy(update={"assertions": [a.model_copy(update={"calibration": None})
                                                 for a in t.assertions]}) for t in plain.tests]
    [j] = judge_corrections(tests)
    assert j.record is None and j.corrected is None and j.raw_rate == 0.5
    assert "no calibration record" in (j.reason or "")
    [stale] = _report([[True]], note=_note("stale")).summary.corrected
    assert stale.corrected is None and "stale" in (stale.reason or "")
    chance = _note().model_copy(update={"errors": JudgeErrorCounts(
        human_fail=10, judge_fail=5, human_pass=10, judge_pass=5)})
    [coin] = _report([[True]], note=chance).summary.corrected
    assert coin.corrected is None and "no better than chance" in (coin.reason or "")


def _required(row: Row) -> Row:
    """The row as --require-judge leaves it without a judge: failed, every vote deferred."""
    unheard = JudgeDetail(kind="llm-judge", threshold=0.7, votes=[JudgeVote(
        model="gpt-4o-mini", deferred=True, error="deferred: no OPENAI_API_KEY")])
    return row.model_copy(update={"status": "failed", "assertions": [a.model_copy(
        update={"status": "failed", "judge": unheard}) for a in row.assertions]})


def test_only_verdicts_a_judge_gave_count() -> None:
    """A deferral --require-judge failed is no judge's verdict: it moves no judged pass rate,
    and a run with no verdict at all has no judged-rate line (nothing was judged)."""
    heard = list(_report([[True]] * 3).tests)
    unheard = [_required(t) for t in _report([[False]] * 2).tests]
    [j] = judge_corrections(heard + unheard)
    assert (j.record, j.tests, j.raw_rate) == (RECORD, 3, 1.0)
    assert judge_corrections(unheard) == []
    # a repeated row: its deferred repetition is not a verdict either
    [row] = _report([[True, True]]).tests
    reps = [row.repetitions[0], _required(row.repetitions[1])]
    [got] = row_corrections(row.model_copy(update={"repetitions": reps}))
    assert (got.judged_passed, got.judged) == (1, 1)
    report = build_report(suites=["s.yaml"], tests=unheard, servers=[], started_at="x",
                          finished_at="y", duration_ms=1.0, judge=JudgeTotals())
    assert report.summary.corrected == []
    assert "judged pass rate" not in get_reporter("pretty")(report)
    assert "judged pass rate" not in get_reporter("md")(report)


def test_every_human_format_shows_the_raw_and_the_corrected_rate_side_by_side() -> None:
    report = _report(PATTERN)
    j = report.summary.corrected[0].corrected
    assert j is not None
    fixed = f"corrected {j.rate:.2f} [{j.ci95.low:.2f}, {j.ci95.high:.2f}]"
    pretty = get_reporter("pretty")(report)
    assert f"judged pass rate 0.66 → {fixed}" in pretty
    assert "judged 3/5 → corrected" in pretty
    comment = get_reporter("md")(report)
    assert "### Judged pass rates, corrected for the judge's errors" in comment
    assert f"| 0.66 | {j.rate:.2f} [{j.ci95.low:.2f}, {j.ci95.high:.2f}] |" in comment
    assert "<b>" not in comment
    html = get_reporter("html")(report)
    assert fixed in html and "tone &lt;b&gt;" in html
    data = json.loads(get_reporter("json")(report))
    assert data["summary"]["corrected"][0]["corrected"]["errors"] == ERRORS.model_dump()


def test_a_baseline_change_is_corrected_by_the_same_judge() -> None:
    old = _report([[True]] * 18 + [[False]] * 2)
    new = _report([[True]] * 14 + [[False]] * 6)
    compared = with_baseline(new, old, CompareOptions(), source="base.json")
    assert compared.comparison is not None
    [d] = compared.comparison.corrected
    want = corrected_difference((14, 20), (18, 20), JudgeErrors(40, 28, 40, 38))
    assert want is not None
    assert d.raw_delta == pytest.approx(-0.2)
    assert d.delta == pytest.approx(want.rate, abs=1e-6) and d.delta < -0.2
    line = f"judged pass rate 0.90 → 0.70 (-0.20); corrected change {d.delta:+.2f}"
    assert line in get_reporter("pretty")(compared)
    assert "corrected change" in get_reporter("md")(compared)
