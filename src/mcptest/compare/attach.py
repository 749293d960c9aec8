"""Attach a comparison to a run's report, and the exit code `--fail-on` gives it.

`--fail-on any-failure` (the default) keeps today's exit code and adds the score gate;
`--fail-on regressed` turns "tests failed" into a pass unless some row regressed or fell past
`max_score_drop`, so a pull request is blocked by what it broke, not by what was already
broken on the base branch (docs/baseline.md). `--fail-on not-measured` (with either, with or
without a baseline) also fails a run with a row none of whose runs produced a verdict. Other exit
codes (server not ready, budget, interrupted, internal error) are kept as they are: they are not
verdicts about the change.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.compare.classify import compare_reports
from mcptest.compare.corrected_delta import corrected_deltas
from mcptest.report.build import gated_exit_code, recomputed
from mcptest.report.models import Report, RowComparison

if TYPE_CHECKING:
    from mcptest.compare.gate_options import CompareOptions


def with_fail_on_not_measured(report: Report) -> Report:
    """`--fail-on not-measured`: the run fails (exit 1) when a row measured nothing, where it
    would have passed; the summary keeps the gate so a report read back says the same."""
    summary = report.summary.model_copy(update={"fail_on_not_measured": True})
    return recomputed(report.model_copy(update={"summary": summary}))


def with_baseline(new: Report, old: Report, options: CompareOptions, *, source: str,
                  note: str | None = None) -> Report:
    """`new` with its comparison, each row's own classification, and the gated exit code."""
    comparison = compare_reports(old, new, options, source=source, note=note)
    comparison = comparison.model_copy(update={"corrected": corrected_deltas(old, new)})
    listed = {r.id: r for r in comparison.rows}
    before = {t.id for t in old.tests}
    tests = []
    for t in new.tests:
        row = listed.get(t.id)
        if row is None and t.id in before:
            row = RowComparison(id=t.id, name=t.name, change="unchanged")
        tests.append(t.model_copy(update={"baseline": row}) if row is not None else t)
    code = new.summary.exit_code
    if new.comparison is not None:  # compared before (`diff` of a compared run): ungated first
        code = recomputed(new.model_copy(update={"comparison": None})).summary.exit_code
    summary = new.summary.model_copy(update={"exit_code": gated_exit_code(code, comparison)})
    return new.model_copy(update={"tests": tests, "comparison": comparison,
                                  "summary": summary})


def with_note(new: Report, note: str) -> Report:
    """A run that found no baseline: it behaves as without one and says so in one line."""
    return new.model_copy(update={"warnings": [*new.warnings, note]})

