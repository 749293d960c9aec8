"""Classify each row of a run against the baseline row with the same id (docs/baseline.md).

Only scored runs count: a row whose new side produced no verdict is `not_measured`. Single runs
compare by outcome, with one exception: a drop that rests on a model's answer (a judge, an eval,
an agent) is one sample, so passed → failed reads `unconfirmed`, with the repetitions that would
detect such a drop; a deterministic row keeps passed → failed as `regressed`. When either side
was repeated, Fisher's exact test gives the row a p-value, and the Benjamini–Hochberg procedure
across every tested row at q (`alpha`) decides which drops are `regressed` (and which rises are
`fixed`), so a comparison of many rows calls few false regressions; a drop it does not support
is `insufficient_data`, or `newly_flaky` when the new run's repetitions disagree where the
baseline's agreed. A row whose definition hash differs is `changed` and is never compared.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.compare.fisher import repeats_to_detect, worse
from mcptest.compare.row_measures import Measure, comparable, judged, measure, report_cost
from mcptest.report.models import (
    Change,
    Comparison,
    Report,
    RowComparison,
    SelectionChange,
    TestResult,
)
from mcptest.stats.fdr import adjusted

if TYPE_CHECKING:
    from mcptest.compare.gate_options import CompareOptions


@dataclass(frozen=True)
class _Test:
    """A row whose pass counts were tested: both one-sided p-values and how it moved."""

    old: Measure
    new: Measure
    worse: float
    better: float


_BY_OUTCOME: dict[tuple[str, str], Change] = {
    ("pass", "fail"): "regressed", ("fail", "pass"): "fixed", ("fail", "fail"): "still_failing",
    ("none", "fail"): "new",
}


def _by_outcome(old: Measure, new: Measure, new_row: TestResult, q: float
                ) -> tuple[Change, int | None]:
    pair = (old.outcome, new.outcome)
    if new.outcome == "flaky" and old.outcome != "flaky":
        return "newly_flaky", None
    change = _BY_OUTCOME.get(pair, "unchanged")
    if change == "regressed" and judged(new_row):
        return "unconfirmed", repeats_to_detect(1.0, 0.0, q)
    return change, None


def _tested(t: _Test, worse_adj: float, better_adj: float, q: float
            ) -> tuple[Change, float | None, float | None, int | None]:
    """The change of a tested row: (change, p-value, adjusted p-value, repeats needed)."""
    old, new = t.old, t.new
    if new.passed * old.runs < old.passed * new.runs:  # the pass rate dropped
        if worse_adj < q:
            return "regressed", t.worse, worse_adj, None
        need = repeats_to_detect(old.passed / old.runs, new.passed / new.runs, q)
        if new.outcome == "flaky" and old.outcome != "flaky":
            return "newly_flaky", t.worse, worse_adj, need
        return "insufficient_data", t.worse, worse_adj, need
    if new.passed * old.runs > old.passed * new.runs:
        return ("fixed" if better_adj < q else "unchanged"), t.better, better_adj, None
    if new.outcome == "fail" and old.outcome == "fail":
        return "still_failing", None, None, None
    return "unchanged", None, None, None


def _base(old: TestResult, new: TestResult, o: Measure, n: Measure) -> RowComparison:
    return RowComparison(
        id=new.id, name=new.name, change="changed", old_status=old.status,
        new_status=new.status,
        old_pass_rate=o.passed / o.runs if o.runs else None,
        new_pass_rate=n.passed / n.runs if n.runs else None,
        old_scored=o.runs, new_scored=n.runs,
        old_cost_usd=o.cost_usd, new_cost_usd=n.cost_usd,
        cost_delta_usd=(None if o.cost_usd is None or n.cost_usd is None
                        else round(n.cost_usd - o.cost_usd, 8)),
        duration_delta_ms=round(new.duration_ms - old.duration_ms, 3))


def compare_row(old: TestResult | None, new: TestResult | None, options: CompareOptions
                ) -> tuple[RowComparison, _Test | None]:
    """How `new` compares with `old` (either may be missing), and its test when its pass
    counts go to Fisher's test (the change of such a row is settled across all rows)."""
    row = new or old
    assert row is not None
    if old is None or new is None:
        m = measure(row)
        return RowComparison(
            id=row.id, name=row.name, change="new" if old is None else "removed",
            old_status=old.status if old else None, new_status=new.status if new else None,
            old_cost_usd=None if new else m.cost_usd,
            new_cost_usd=m.cost_usd if new else None), None
    o, n = measure(old), measure(new)
    base = _base(old, new, o, n)
    if not comparable(old, new):
        return base, None
    delta = None if o.score is None or n.score is None else round(n.score - o.score, 6)
    gate = new.max_score_drop if new.max_score_drop is not None else options.max_score_drop
    base = base.model_copy(update={"score_delta": delta, "gated": gate is not None and
                                   delta is not None and -delta > gate})
    if n.runs == 0:  # measured nothing now: never "unchanged" against a run that measured
        return base.model_copy(update={"change": "not_measured" if o.runs else "unchanged"}), None
    if max(o.runs, n.runs) >= 2 and min(o.runs, n.runs) >= 1:
        test = _Test(o, n, worse(o.passed, o.runs, n.passed, n.runs),
                     worse(n.passed, n.runs, o.passed, o.runs))
        return base.model_copy(update={"change": "unchanged"}), test
    change, need = _by_outcome(o, n, new, options.alpha)
    return base.model_copy(update={"change": change, "repeats_needed": need}), None


def selection_changes(before: dict[str, TestResult], tests: list[TestResult]
                      ) -> list[SelectionChange]:
    """Each selection row against the baseline's row of the same id: what the comparison
    leads with (docs/selection.md, "Against a baseline")."""
    out = []
    for t in tests:
        old = before.get(t.id)
        if t.selection is None or old is None or old.selection is None:
            continue
        o, n = old.selection, t.selection
        out.append(SelectionChange(
            id=t.id, name=t.name, old_won=o.won, old_scored=o.scored, new_won=n.won,
            new_scored=n.scored, old_margin=o.margin, new_margin=n.margin,
            old_cost_usd=old.cost_usd if old.cost_known else None,
            new_cost_usd=t.cost_usd if t.cost_known else None))
    return out


def compare_reports(old: Report, new: Report, options: CompareOptions, *,
                    source: str, note: str | None = None) -> Comparison:
    """Every row of `new` against `old`; rows that did not change are counted, not listed. The
    tested rows are settled together: Benjamini–Hochberg at q over all of them."""
    before = {t.id: t for t in old.tests}
    after = {t.id: t for t in new.tests}
    pairs = [compare_row(before.get(t.id), t, options) for t in new.tests]
    pairs += [compare_row(t, None, options) for t in old.tests if t.id not in after]
    tests = [t for _, t in pairs if t is not None]
    worse_adj = iter(adjusted([t.worse for t in tests]))
    better_adj = iter(adjusted([t.better for t in tests]))
    rows = []
    for row, t in pairs:
        if t is not None:
            change, p, p_adj, need = _tested(t, next(worse_adj), next(better_adj),
                                             options.alpha)
            row = row.model_copy(update={
                "change": change, "p_value": p, "p_adjusted": p_adj, "repeats_needed": need})
        rows.append(row)
    old_cost, new_cost = report_cost(old), report_cost(new)
    return Comparison(
        selection=selection_changes(before, new.tests),
        baseline=source, baseline_started_at=old.started_at, note=note, alpha=options.alpha,
        tested=len(tests), fail_on=options.fail_on,
        fail_on_not_measured=options.fail_on_not_measured,
        max_score_drop=options.max_score_drop,
        counts=dict(Counter(r.change for r in rows)),
        rows=[r for r in rows if r.change != "unchanged" or r.gated],
        old_cost_usd=old_cost, new_cost_usd=new_cost,
        cost_delta_usd=(None if old_cost is None or new_cost is None
                        else round(new_cost - old_cost, 8)),
        duration_delta_ms=round(new.summary.duration_ms - old.summary.duration_ms, 1))
