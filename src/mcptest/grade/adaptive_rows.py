"""`repeat: adaptive`: which rows run again, when each stops, and the row it leaves
(docs/statistics.md, "Adaptive repeats").

Every adaptive row runs once. It stays open when that run leaves its answer open
(`stats.sequential.needs_repeats`: it failed, it differs from the baseline's verdict, or a judged
score sits near its threshold); an open row runs again, one repetition at a time, until
`stats.sequential.settle` decides whether its pass rate meets `min_pass_rate` (the confidence
sequence clears the threshold, or the fixed MAX runs could no longer change the answer of the
row's gate: on Wilson's lower end by default, on the rate with `min_pass_rate_on: estimate`), its
MAX-th run, or its share of the budget (what was left after the first run, split evenly over
the open rows) is spent. The row is then merged as a fixed count's would be, over the runs it
took; a row settled by one run stays a plain row.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from mcptest.grade.repeat_options import GateOn, RepeatOptions, adaptive_most
from mcptest.grade.repeated_row import merge_repetitions
from mcptest.report.measures import AdaptiveSummary
from mcptest.stats.sequential import needs_repeats, settle

if TYPE_CHECKING:
    from mcptest.plan import PlannedTest
    from mcptest.report.models import Report, TestResult

_UNSCORED = ("deferred", "skipped", "not_yet_available")


def _margin(row: TestResult) -> tuple[float | None, float | None]:
    """The judged score nearest its threshold, with that threshold."""
    pairs = [(j.score, j.threshold) for j in (row.judge, *(a.judge for a in row.assertions))
             if j is not None and j.score is not None and j.threshold is not None]
    if not pairs:
        return None, None
    return min(pairs, key=lambda st: abs(st[0] - st[1]))


class Adaptive:
    """The adaptive rows of one run: open, settled, and what settled each."""

    def __init__(self, tests: list[PlannedTest], options: RepeatOptions,
                 max_cost: float | None, first: Report) -> None:
        self.ids = {t.id for t in tests}
        self.min_rate = {t.id: t.spec.min_pass_rate if t.spec.min_pass_rate is not None
                         else options.min_pass_rate for t in tests}
        gate_on = {t.id: t.spec.min_pass_rate_on or options.min_pass_rate_on for t in tests}
        self.on_bound = {i: on != "estimate" for i, on in gate_on.items()}
        self.most = {i: adaptive_most(options.adaptive, self.min_rate[i], on)
                     for i, on in gate_on.items()}
        self.runs: dict[str, list[TestResult]] = {}
        self.open: set[str] = set()
        self.by: dict[str, str] = {}
        self.changed: set[str] = set()
        self.share: float | None = None
        for row in first.tests:
            if row.id not in self.ids:
                continue
            self.runs[row.id] = [row]
            if row.status in _UNSCORED:  # nothing measured: another run measures nothing more
                continue
            passed = row.status == "passed"
            base = options.baseline_passed.get(row.id)
            if needs_repeats(passed, base, *_margin(row)):
                self.open.add(row.id)
                if base is not None and base != passed:
                    self.changed.add(row.id)
                self._settle(row.id)  # one failure may already decide (min_pass_rate 1)
        if max_cost is not None and self.open:
            self.share = max(max_cost - first.summary.cost_usd, 0.0) / len(self.open)

    def wants(self, test_id: str) -> bool:
        return test_id in self.open

    def after(self, report: Report) -> None:
        """One more repetition ran: add its rows and settle what it settled."""
        for row in report.tests:
            if row.id in self.open:
                self.runs[row.id].append(row)
                self._settle(row.id)

    def _settle(self, test_id: str) -> None:
        scored = [r for r in self.runs[test_id] if r.status not in _UNSCORED]
        passes = sum(r.status == "passed" for r in scored)
        runs = len(self.runs[test_id])
        most = self.most[test_id]
        v = settle(passes, len(scored), self.min_rate[test_id], most,
                   on_lower_bound=self.on_bound[test_id])
        if v.decision is None and runs >= most:
            self._close(test_id, "limit")
        elif v.decision is not None:
            self._close(test_id, str(v.by))
        elif self.share is not None and sum(r.cost_usd for r in self.runs[test_id]) >= \
                self.share:
            self._close(test_id, "budget")

    def _close(self, test_id: str, by: str) -> None:
        self.open.discard(test_id)
        self.by[test_id] = by

    def stop(self) -> None:
        """The run stopped (interrupted, budget, fault): the open rows end where they are."""
        for test_id in list(self.open):
            self._close(test_id, "stopped")

    def row(self, test: PlannedTest, reps: list[TestResult], gate_on: GateOn) -> TestResult:
        if test.id in self.open:  # the loop ran out of repetitions
            self._close(test.id, "limit")
        if len(reps) == 1:
            return reps[0]
        merged = merge_repetitions(reps, self.min_rate[test.id], (), gate_on)
        if merged.repeat is None:
            return merged
        stats = merged.repeat.model_copy(update={
            "decided_by": self.by.get(test.id, "limit"),
            "opened_by_change": test.id in self.changed})
        return merged.model_copy(update={"repeat": stats})

    def summary(self, tests: list[TestResult]) -> AdaptiveSummary | None:
        mine = [t for t in tests if t.id in self.ids]
        if not mine:
            return None
        repeated = [t for t in mine if t.repeat is not None]
        runs = sum(t.repeat.runs if t.repeat is not None else 1 for t in mine)
        return AdaptiveSummary(
            rows=len(mine), most=max(self.most[t.id] for t in mine),
            one_run=len(mine) - len(repeated),
            decided=dict(Counter(t.repeat.decided_by or "limit" for t in repeated
                                 if t.repeat is not None)),
            runs=runs,
            mean_runs_repeated=round(sum(t.repeat.runs for t in repeated if t.repeat) /
                                     len(repeated), 2) if repeated else None,
            flaky_not_changed=[t.name for t in repeated
                               if t.repeat is not None and t.repeat.opened_by_change
                               and t.status == "flaky"])
