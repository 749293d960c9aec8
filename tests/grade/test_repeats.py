"""Merging a repeated test's repetitions: status, pass rate, score spread, verdict."""

from __future__ import annotations

import pytest

from mcptest.grade.repeated_row import merge_repetitions
from mcptest.report.models import JudgeDetail, Location, Status
from mcptest.report.models import TestResult as Row
from mcptest.stats.intervals import wilson


def rep(status: Status, score: float | None = None, cost: float = 0.01,
        cost_known: bool = True) -> Row:
    return Row(id="s::tool::t", name="t", suite_file="s", location=Location(file="s", line=1),
               status=status, judge=JudgeDetail(kind="eval", score=score), cost_usd=cost,
               cost_known=cost_known, duration_ms=5.0)


@pytest.mark.parametrize(("statuses", "merged"), [
    (["passed", "passed"], "passed"),
    (["passed", "deferred"], "passed"),
    (["failed", "error"], "failed"),
    (["error", "error"], "error"),
    (["passed", "failed", "passed"], "flaky"),
    (["passed", "skipped"], "passed"),  # an unfinished repetition is kept, not counted
])
def test_status_of_the_merged_row(statuses: list[Status], merged: Status) -> None:
    row = merge_repetitions([rep(s) for s in statuses], 1.0)
    assert row.status == merged
    assert len(row.repetitions) == len(statuses)
    assert row.repeat is not None and row.repeat.runs == len([s for s in statuses
                                                              if s != "skipped"])


def test_spread_cost_and_verdict() -> None:
    reps = [rep("passed", 0.9), rep("failed", 0.3, cost_known=False), rep("passed", 0.6)]
    row = merge_repetitions(reps, 0.6, gate_on="estimate")
    assert row.repeat is not None
    assert (row.repeat.passed, row.repeat.pass_rate, row.repeat.met) == (2, 0.666667, True)
    # by default the gate holds the Wilson lower end of 2 of 3, which does not show 0.6
    held = merge_repetitions(reps, 0.6).repeat
    low = wilson(2, 3)
    assert held is not None and low is not None and not held.met
    assert (held.gated_on, held.gated_value) == ("lower_bound", round(low[0], 6))
    assert (row.repeat.score_mean, row.repeat.score_min, row.repeat.score_max) == (0.6, 0.3, 0.9)
    assert row.repeat.score_stdev == pytest.approx(0.3)
    assert (row.cost_usd, row.cost_known, row.duration_ms) == (0.03, False, 15.0)
    assert row.gap == "flaky" and "passed 2 of 3" in (row.message or "")
    assert merge_repetitions([rep("passed"), rep("failed")], 1.0).repeat.met is False
