"""Row classification, the statistical verdict under repeats, cost deltas and the exit gate."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rows import report, row

from mcptest.compare.attach import with_baseline
from mcptest.compare.classify import compare_reports
from mcptest.compare.gate_options import CompareOptions
from mcptest.report.models import Report
from mcptest.report.models import TestResult as Row

OPTS = CompareOptions()


def changes(old: Report, new: Report, options: CompareOptions = OPTS) -> dict[str, str]:
    c = compare_reports(old, new, options, source="old.json")
    return {r.id: r.change for r in c.rows}


def test_every_classification_of_single_runs() -> None:
    old = report(row("reg"), row("fix", "failed"), row("still", "error"), row("same"),
                 row("chg"), row("gone"), row("skipped-before", "skipped"))
    new = report(row("reg", "failed"), row("fix"), row("still", "failed"), row("same"),
                 row("chg", definition="other"), row("brand-new", "failed"),
                 row("skipped-before", "failed"))
    assert changes(old, new) == {
        "reg": "regressed", "fix": "fixed", "still": "still_failing", "chg": "changed",
        "brand-new": "new", "gone": "removed", "skipped-before": "new",
    }


def test_a_changed_definition_is_never_compared() -> None:
    c = compare_reports(report(row("t")), report(row("t", "failed", definition="x")), OPTS,
                        source="old")
    assert [(r.change, r.p_value, r.score_delta) for r in c.rows] == [("changed", None, None)]


def test_repeats_follow_fishers_test() -> None:
    old = report(row("drop", runs=5, passed=5), row("noisy", runs=5, passed=4),
                 row("onset", runs=5, passed=5), row("better", runs=5, passed=0))
    new = report(row("drop", runs=5, passed=0), row("noisy", runs=5, passed=3),
                 row("onset", runs=5, passed=4), row("better", runs=5, passed=5))
    c = compare_reports(old, new, OPTS, source="old")
    got = {r.id: (r.change, round(r.p_value or 0, 4)) for r in c.rows}
    assert got == {"drop": ("regressed", 0.004), "noisy": ("insufficient_data", 0.5),
                   "onset": ("newly_flaky", 0.5), "better": ("fixed", 0.004)}


def test_a_single_flaky_run_is_newly_flaky_and_alpha_is_respected() -> None:
    old, new = report(row("t")), report(row("t", runs=3, passed=2))
    assert changes(old, new) == {"t": "newly_flaky"}
    strict = CompareOptions(alpha=0.001)
    assert changes(report(row("t", runs=5, passed=5)), report(row("t", runs=5, passed=0)),
                   strict) == {"t": "insufficient_data"}


def test_unknown_cost_is_unknown_never_zero() -> None:
    old = report(row("a", cost=0.01), row("b", cost=0.02))
    new = report(row("a", cost=0.03), row("b", cost=0.0, cost_known=False))
    c = compare_reports(old, new, OPTS, source="old")
    assert (c.old_cost_usd, c.new_cost_usd, c.cost_delta_usd) == (0.03, None, None)
    known = compare_reports(old, report(row("a", "failed", cost=0.05), row("b", cost=0.02)),
                            OPTS, source="old")
    assert known.cost_delta_usd == 0.04
    assert [(r.id, r.cost_delta_usd) for r in known.rows] == [("a", 0.04)]


def test_score_drop_gate() -> None:
    old, new = report(row("t", score=0.9)), report(row("t", score=0.7))
    c = compare_reports(old, new, CompareOptions(max_score_drop=0.1), source="old")
    assert [(r.change, r.score_delta, r.gated) for r in c.rows] == [("unchanged", -0.2, True)]
    assert compare_reports(old, new, CompareOptions(max_score_drop=0.25), source="o").rows == []


def test_fail_on_regressed_passes_old_failures_and_fails_regressions() -> None:
    old = report(row("a", "failed"), row("b"))
    assert report(row("a", "failed"), row("b")).summary.exit_code == 1
    regressed_only = CompareOptions(fail_on="regressed")
    kept = with_baseline(report(row("a", "failed"), row("b")), old, regressed_only, source="o")
    assert kept.summary.exit_code == 0
    assert [t.baseline.change for t in kept.tests if t.baseline] == ["still_failing", "unchanged"]
    broke = with_baseline(report(row("a", "failed"), row("b", "failed")), old, regressed_only,
                          source="o")
    assert broke.summary.exit_code == 1
    gated = with_baseline(report(row("a", score=0.2)), report(row("a", score=0.9)),
                          CompareOptions(max_score_drop=0.5), source="o")
    assert gated.summary.exit_code == 1  # all passed, but the score fell past the gate


statuses = st.sampled_from(["passed", "failed", "error", "skipped", "deferred"])


@st.composite
def rows_(draw: st.DrawFn) -> list[Row]:
    out = []
    for i in range(draw(st.integers(0, 12))):
        if draw(st.booleans()):
            runs = draw(st.integers(1, 8))
            out.append(row(f"t{i}", runs=runs, passed=draw(st.integers(0, runs)),
                           score=draw(st.none() | st.floats(0, 1))))
        else:
            out.append(row(f"t{i}", draw(statuses), definition=draw(st.sampled_from("xy")),
                           cost_known=draw(st.booleans())))
    return out


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(rows_())
def test_a_report_compared_with_itself_has_no_regression(tests: list[Row]) -> None:
    r = report(*tests)
    c = compare_reports(r, r, CompareOptions(max_score_drop=0.0), source="self")
    assert {row.change for row in c.rows} <= {"still_failing"}
    assert not any(row.gated for row in c.rows)
    # "tests failed" turns into a pass: nothing regressed against itself
    assert with_baseline(r, r, CompareOptions(fail_on="regressed"), source="self"
                         ).summary.exit_code != 1


def test_a_rows_own_gate_wins_over_the_command_line() -> None:
    old = report(row("t", score=0.9), row("u", score=0.9))
    strict = row("t", score=0.8).model_copy(update={"max_score_drop": 0.05})
    new = report(strict, row("u", score=0.8))
    c = compare_reports(old, new, CompareOptions(max_score_drop=0.5), source="o")
    assert [(r.id, r.gated) for r in c.rows] == [("t", True)]
