"""The `judge-calibration` gap (docs/cascade.md): a failure the judge's calibration puts in
doubt."""

from __future__ import annotations

from mcptest.grade.diagnose import gap_category
from mcptest.report.models import AssertionResult, CalibrationNote, JudgeDetail


def failed_judged(note: CalibrationNote | None) -> AssertionResult:
    return AssertionResult(index=0, target="result", matcher="llm-judge", status="failed",
                           message="score 0.30 < threshold 0.70",
                           judge=JudgeDetail(kind="llm-judge", score=0.3, threshold=0.7),
                           calibration=note)


def calibrated(false_fail: float) -> CalibrationNote:
    return CalibrationNote(state="calibrated", advisory=False, record="r.json", labels=60,
                           kappa=0.85, false_fail_rate=false_fail, max_false_fail=0.1)


def test_a_judge_that_fails_too_many_good_answers_is_the_suspect() -> None:
    produced = {"result": {"content": []}}
    assert gap_category("failed", [failed_judged(calibrated(0.25))], produced) == "judge-calibration"
    assert gap_category("failed", [failed_judged(calibrated(0.05))], produced) == "judgment"
    assert gap_category("failed", [failed_judged(None)], produced) == "judgment"


def test_an_uncalibrated_judge_failing_under_require_calibration() -> None:
    note = CalibrationNote(state="stale", advisory=False, record="r.json", verdict="failed")
    assert gap_category("failed", [failed_judged(note)], {"result": {"content": []}}) == \
        "judge-calibration"
