"""The run's escalation cascades in one line of figures: who settled how many verdicts, what they
cost against the last tier on every one, and the guarantee (docs/cascade.md, "In reports").
Pure: a function of the rows, so a report read back gets it counted again."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.report.judge_models import CascadeSummary, Escalation

if TYPE_CHECKING:
    from mcptest.report.models import AssertionResult, TestResult


def _cascades(tests: list[TestResult]) -> list[tuple[AssertionResult, Escalation]]:
    return [(a, a.judge.escalation) for t in tests for run in (t.repetitions or [t])
            for a in run.assertions if a.judge is not None and a.judge.escalation is not None]


def cascade_summary(tests: list[TestResult]) -> CascadeSummary | None:
    found = [(a, e) for a, e in _cascades(tests) if e.decided_by is not None]
    if not found:
        return None
    tiers = max(len(e.tiers) for _, e in found)
    settled = [sum(1 for _, e in found if e.decided_by == k) for k in range(1, tiers + 1)]
    cost = sum(a.cost_usd for a, _ in found)
    lasts = [e.last_tier_cost_usd for _, e in found]
    last = None if any(x is None for x in lasts) else sum(x for x in lasts if x is not None)
    guarantees = [e.guaranteed_agreement for _, e in found if e.calibrated]
    return CascadeSummary(
        verdicts=len(found), settled=settled, cost_usd=round(cost, 6),
        last_tier_cost_usd=None if last is None else round(last, 6),
        saved_usd=None if last is None else round(last - cost, 6),
        guaranteed_agreement=min((g for g in guarantees if g is not None), default=None),
        uncalibrated=sum(1 for _, e in found if not e.calibrated))
