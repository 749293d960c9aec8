"""Corrected judged rates, computed from a report's rows (docs/statistics.md).

A judged verdict counts for its judge's calibration record: an `llm-judge`, `llm-jury` or
rubric assertion, or an eval row. Its pass or fail is what the judge said (an advisory verdict
keeps it in `calibration.verdict`); a verdict the judge never gave (deferred, error, or a
deferral --require-judge failed: no vote was answered) is not counted. Per row the verdicts of
every repetition count; per judge over the run each test counts once, at its own pass rate, so
repeating a test does not make the run look surer than it is.
Records that are missing, unreadable or stale (they measured another rubric or judge) give no
correction, and the report says so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.report.base import Interval
from mcptest.report.corrected_models import CorrectedRate, JudgeCorrection, JudgeErrorCounts
from mcptest.report.judge_models import judges_said
from mcptest.stats.judge_correction import JudgeErrors, correct_rate

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.report.judge_models import CalibrationNote
    from mcptest.report.result_models import TestResult

_USABLE = ("calibrated", "below-floor", "too-few-labels")
_WHY = {
    "missing": "no calibration record: the judge's raw rate only",
    "unreadable": "the calibration record is unreadable: the judge's raw rate only",
    "stale": "the calibration record is stale (it measured another rubric or judge): the "
             "judge's raw rate only",
    "untrusted": "the calibration record changed in this pull request and is not trusted "
                 "here: the judge's raw rate only",
}
NO_RECORD = "no calibration record (`calibration:` not set): the judge's raw rate only"


def _verdict(status: str, note: CalibrationNote | None) -> bool | None:
    if note is not None and note.verdict is not None:
        return note.verdict == "passed"
    return {"passed": True, "failed": False}.get(status)


def _units(row: TestResult) -> Iterator[tuple[CalibrationNote | None, bool]]:
    """(its calibration, passed) for each verdict a judge gave in one run of a row."""
    if row.kind == "eval" and row.judge is not None and judges_said(row.status, row.message,
                                                                     row.judge):
        v = _verdict(row.status, row.calibration)
        if v is not None:
            yield row.calibration, v
    for a in row.assertions:
        said = judges_said(a.status, a.message, a.judge)
        if (a.judge is not None or a.calibration is not None) and said:
            v = _verdict(a.status, a.calibration)
            if v is not None:
                yield a.calibration, v


def _runs(row: TestResult) -> list[TestResult]:
    return row.repetitions or [row]


def _errors(note: CalibrationNote | None) -> JudgeErrors | None:
    if note is None or note.state not in _USABLE or note.errors is None:
        return None
    e = note.errors
    return JudgeErrors(human_fail=e.human_fail, judge_fail=e.judge_fail,
                       human_pass=e.human_pass, judge_pass=e.judge_pass)


def _corrected(record: str, passed: float, n: int, counts: JudgeErrorCounts | None,
               errors: JudgeErrors | None) -> CorrectedRate | None:
    if errors is None or counts is None or n == 0:
        return None
    found = correct_rate(passed / n, n, errors)
    if found is None:
        return None
    q0, q1 = errors.specificity, errors.sensitivity
    assert q0 is not None and q1 is not None
    return CorrectedRate(
        record=record, judged_passed=round(passed, 6), judged=n, raw_rate=round(found.raw, 6),
        rate=round(found.rate, 6), ci95=Interval(low=round(found.low, 6),
                                                 high=round(found.high, 6)),
        specificity=round(q0, 6), sensitivity=round(q1, 6), errors=counts)


def row_corrections(row: TestResult) -> list[CorrectedRate]:
    """The row's judged pass rate per calibration record it was judged under, corrected."""
    tally: dict[str, tuple[CalibrationNote, int, int]] = {}
    for run in _runs(row):
        for note, passed in _units(run):
            if note is None:
                continue
            _, p, n = tally.get(note.record, (note, 0, 0))
            tally[note.record] = (note, p + passed, n + 1)
    found = (_corrected(record, p, n, note.errors, _errors(note))
             for record, (note, p, n) in tally.items())
    return [c for c in found if c is not None]


def judge_corrections(tests: list[TestResult]) -> list[JudgeCorrection]:
    """Per judge (calibration record) over the run: each test once, at its pass rate."""
    per: dict[str | None, tuple[CalibrationNote | None, float, int]] = {}
    for row in tests:
        mine: dict[str | None, tuple[CalibrationNote | None, int, int]] = {}
        for run in _runs(row):
            for note, passed in _units(run):
                key = note.record if note is not None else None
                _, p, n = mine.get(key, (note, 0, 0))
                mine[key] = (note, p + passed, n + 1)
        for key, (note, p, n) in mine.items():
            _, total, count = per.get(key, (note, 0.0, 0))
            per[key] = (note, total + p / n, count + 1)
    out = []
    for key, (note, total, count) in sorted(per.items(), key=lambda kv: kv[0] or ""):
        errors = _errors(note)
        corrected = (_corrected(key, total, count, note.errors if note else None, errors)
                     if key is not None else None)
        reason = None
        if corrected is None:
            if key is None or note is None:
                reason = NO_RECORD
            elif note.state in _WHY:
                reason = _WHY[note.state]
            elif note.state not in _USABLE:
                reason = f"calibration {note.state}: the judge's raw rate only"
            elif errors is None or not errors.human_fail or not errors.human_pass:
                reason = ("the calibration record lacks passing or failing labels: the judge's "
                          "raw rate only")
            else:
                reason = "the judge is no better than chance on its labels: nothing to correct"
        out.append(JudgeCorrection(
            record=key, tests=count, judged_passed=round(total, 6),
            raw_rate=round(total / count, 6) if count else None, corrected=corrected,
            reason=reason))
    return out
