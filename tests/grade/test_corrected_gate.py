"""The default gate (docs/baseline.md, "The gate holds the interval"): a repeated judged row whose
judge a calibration record measured is held against the lower end of its judge's pass rate
corrected for the judge's errors; without a record, against the Wilson interval's lower end;
`corrected_lower_bound` is an older spelling of the default, `estimate` holds the rate."""

from __future__ import annotations

import pytest

from mcptest.grade.repeat_options import GateOn
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
    assert (met.repeat.gated_on, met.repeat.gated_value) == \
        ("corrected_lower_bound", round(want.low, 6))
    # the corrected interval is wider than Wilson's (it carries the labels' uncertainty too):
    # a floor between the two lower ends would pass on Wilson's; the default holds the corrected
    wilson_low = wilson(passes, 10)
    assert wilson_low is not None and want.low < wilson_low[0]
    between = (want.low + wilson_low[0]) / 2
    for spelling in ("lower_bound", "corrected_lower_bound"):
        row = merge_repetitions(_reps(runs, NOTE), between, gate_on=spelling)
        assert row.repeat is not None and not row.repeat.met
        assert row.status in ("failed", "flaky")
        assert f"judge-corrected 95% lower bound {want.low:.2f} < min_pass_rate " \
            f"{between:.2f}: not met" in (row.message or "")
    assert merge_repetitions(_reps(runs, NOTE), between).repeat == \
        merge_repetitions(_reps(runs, NOTE), between, gate_on="lower_bound").repeat
    point = merge_repetitions(_reps(runs, NOTE), between, gate_on="estimate")
    assert point.repeat is not None and point.repeat.met
    assert (point.repeat.gated_on, point.repeat.gated_value) == ("estimate", passes / 10)


@pytest.mark.parametrize("spelling", ["lower_bound", "corrected_lower_bound"])
def test_without_a_record_it_is_the_wilson_lower_bound(spelling: GateOn) -> None:
    runs = [True] * 10
    low = wilson(10, 10)
    assert low is not None
    for floor, met in ((low[0] - 0.01, True), (low[0] + 0.01, False)):
        row = merge_repetitions(_reps(runs, None), floor, gate_on=spelling)
        assert row.repeat is not None and row.repeat.met is met
        assert (row.repeat.gated_on, row.repeat.gated_value) == ("lower_bound", round(low[0], 6))


def test_a_floor_of_one_is_decided_by_the_count() -> None:
    """No interval reaches 1: every scored run must pass, and the report says the count
    decided."""
    for passes, met in ((10, True), (9, False)):
        runs = [True] * passes + [False] * (10 - passes)
        row = merge_repetitions(_reps(runs, NOTE), 1.0)
        assert row.repeat is not None and row.repeat.met is met
        assert row.repeat.gated_on == "estimate" and row.repeat.min_pass_rate_on == "lower_bound"
    assert "every scored run must pass" in (row.message or "")
