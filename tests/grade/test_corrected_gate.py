"""`min_pass_rate_on: corrected_lower_bound` (docs/statistics.md): a repeated judged row is held
against the lower end of its judge's pass rate corrected for the judge's errors; without a
calibration record, against the Wilson interval's lower end as `lower_bound` is."""

from __future__ import annotations

import pytest

from mcptest.grade.repeated_row import merge_repetitions
from mcptest.report.models import (
    AssertionResult,
    CalibrationNote,
    JudgeDetail,
    JudgeErrorCounts,
    Location,
)
from mcptest.report.models import TestResult as Row
from mcptest.stats.intervals import wilson
from mcptest.stats.judge_correction import JudgeErrors, correct

ERRORS = JudgeErrorCounts(human_fail=20, judge_fail=16, human_pass=30, judge_pass=28)
NOTE = CalibrationNote(state="calibrated", advisory=False, record="r.calibration.json",
                       labels=50, kappa=0.75, errors=ERRORS)


def _reps(passes: list[bool], note: CalibrationNote | None) -> list[Row]:
    return [Row(id="s::tool::t", name="t", suite_file="s.yaml",
                location=Location(file="s.yaml", line=1), status="passed" if p else "failed",
                assertions=[AssertionResult(
                    index=0, target="result", matcher="llm-judge",
                    status="passed" if p else "failed", calibration=note,
                    judge=JudgeDetail(kind="llm-judge", score=0.9 if p else 0.2,
                                      threshold=0.7))])
            for p in passes]


@pytest.mark.parametrize(("passes", "floor"), [(9, 0.45), (10, 0.6)])
def test_the_corrected_lower_bound_decides(passes: int, floor: float) -> None:
    runs = [True] * passes + [False] * (10 - passes)
    want = correct(passes, 10, JudgeErrors(20, 16, 30, 28))
    assert want is not None and want.low > floor
    met = merge_repetitions(_reps(runs, NOTE), floor, gate_on="corrected_lower_bound")
    assert met.repeat is not None and met.repeat.met
    # the corrected interval is wider than Wilson's (it carries the labels' uncertainty too):
    # a floor between the two lower ends passes on Wilson's and fails on the corrected one
    between = (want.low + wilson(passes, 10)[0]) / 2  # type: ignore[index]
    wilson_row = merge_repetitions(_reps(runs, NOTE), between, gate_on="lower_bound")
    corrected_row = merge_repetitions(_reps(runs, NOTE), between,
                                      gate_on="corrected_lower_bound")
    assert wilson_row.repeat is not None and wilson_row.repeat.met
    assert corrected_row.repeat is not None and not corrected_row.repeat.met
    assert corrected_row.status == "failed" or corrected_row.status == "flaky"
    assert "corrected lower bound" in (corrected_row.message or "")


def test_without_a_record_it_is_the_wilson_lower_bound() -> None:
    runs = [True] * 10
    low = wilson(10, 10)
    assert low is not None
    for floor, met in ((low[0] - 0.01, True), (low[0] + 0.01, False)):
        row = merge_repetitions(_reps(runs, None), floor, gate_on="corrected_lower_bound")
        assert row.repeat is not None and row.repeat.met is met
