"""Classify each row of a run against the baseline row with the same id (docs/baseline.md).

Single runs compare by outcome: passed → failed is `regressed`. When either side was repeated,
pass counts decide through Fisher's exact test at `alpha`: a drop the test does not support is
`insufficient_data`, so one coin-flip of a judge does not block a pull request; a new run whose
repetitions disagree where the baseline's agreed is `newly_flaky`. A row whose definition hash
differs is `changed` and is never compared.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Literal

from mcptest.compare.fisher import worse
from mcptest.compare.measures import Measure, comparable, measure, report_cost
from mcptest.report.models import Change, Comparison, Report, RowComparison, TestResult

DEFAULT_ALPHA = 0.05
"""The significance level of the regression test (docs/baseline.md)."""
FailOn = Literal["regressed", "any-failure"]


@dataclass(frozen=True)
class CompareOptions:
    alpha: float = DEFAULT_ALPHA
    fail_on: FailOn = "any-failure"
    max_score_drop: float | None = None
    """A comparable row whose judged score fell by more than this fails the gate (a row's own
    `max_score_drop`, from its test or suite, wins)."""


def _statistical(old: Measure, new: Measure, alpha: float) -> tuple[Change, float | None]:
    if new.passed * old.runs < old.passed * new.runs:  # the pass rate dropped
        p = worse(old.passed, old.runs, new.passed, new.runs)
        if p < alpha:
            return "regressed", p
        if new.outcome == "flaky" and old.outcome != "flaky":
            return "newly_flaky", p
        return "insufficient_data", p
    if new.passed * old.runs > old.passed * new.runs:
        p = worse(new.passed, new.runs, old.passed, old.runs)
        return ("fixed" if p < alpha else "unchanged"), p
    if new.outcome == "fail" and old.outcome == "fail":
        return "still_failing", None
    return "unchanged", None


_BY_OUTCOME: dict[tuple[str, str], Change] = {
    ("pass", "fail"): "regressed", ("fail", "pass"): "fixed", ("fail", "fail"): "still_failing",
    ("none", "fail"): "new",
}


def _by_outcome(old: Measure, new: Measure) -> Change:
    pair = (old.outcome, new.outcome)
    if new.outcome == "flaky" and old.outcome != "flaky":
        return "newly_flaky"
    return _BY_OUTCOME.get(pair, "unchanged")


def compare_row(old: TestResult | None, new: TestResult | None,
                options: CompareOptions) -> RowComparison:
    """How `new` compares with `old` (either may be missing)."""
    row = new or old
    assert row is not None
    if old is None or new is None:
        m = measure(row)
        return RowComparison(
            id=row.id, name=row.name, change="new" if old is None else "removed",
            old_status=old.status if old else None, new_status=new.status if new else None,
            old_cost_usd=None if new else m.cost_usd, new_cost_usd=m.cost_usd if new else None)
    o, n = measure(old), measure(new)
    base = RowComparison(
        id=new.id, name=new.name, change="changed", old_status=old.status,
        new_status=new.status,
        old_pass_rate=o.passed / o.runs if o.runs else None,
        new_pass_rate=n.passed / n.runs if n.runs else None,
        old_cost_usd=o.cost_usd, new_cost_usd=n.cost_usd,
        cost_delta_usd=(None if o.cost_usd is None or n.cost_usd is None
                        else round(n.cost_usd - o.cost_usd, 8)),
        duration_delta_ms=round(new.duration_ms - old.duration_ms, 3))
    if not comparable(old, new):
        return base
    p: float | None = None
    if max(o.runs, n.runs) >= 2 and min(o.runs, n.runs) >= 1:
        change, p = _statistical(o, n, options.alpha)
    else:
        change = _by_outcome(o, n)
    delta = None if o.score is None or n.score is None else round(n.score - o.score, 6)
    gate = new.max_score_drop if new.max_score_drop is not None else options.max_score_drop
    gated = gate is not None and delta is not None and -delta > gate
    return base.model_copy(update={"change": change, "p_value": p, "score_delta": delta,
                                   "gated": gated})


def compare_reports(old: Report, new: Report, options: CompareOptions, *,
                    source: str, note: str | None = None) -> Comparison:
    """Every row of `new` against `old`; rows that did not change are counted, not listed."""
    before = {t.id: t for t in old.tests}
    after = {t.id: t for t in new.tests}
    rows = [compare_row(before.get(t.id), t, options) for t in new.tests]
    rows += [compare_row(t, None, options) for t in old.tests if t.id not in after]
    old_cost, new_cost = report_cost(old), report_cost(new)
    return Comparison(
        baseline=source, baseline_started_at=old.started_at, note=note, alpha=options.alpha,
        fail_on=options.fail_on, max_score_drop=options.max_score_drop,
        counts=dict(Counter(r.change for r in rows)),
        rows=[r for r in rows if r.change != "unchanged" or r.gated],
        old_cost_usd=old_cost, new_cost_usd=new_cost,
        cost_delta_usd=(None if old_cost is None or new_cost is None
                        else round(new_cost - old_cost, 8)),
        duration_delta_ms=round(new.summary.duration_ms - old.summary.duration_ms, 1))
