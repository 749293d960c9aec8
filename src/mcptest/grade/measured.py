"""What a test costs, as targets (docs/suites.md#latency-and-cost-limits): `judge.cost_usd` and
`judge.calls` are known only once the test's judges have answered, so assertions reading them
are graded last, over the results of its judged assertions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from mcptest.plan import PlannedAssertion
    from mcptest.report.models import AssertionResult


def reads_judge(p: PlannedAssertion) -> bool:
    return p.assertion.target.split(".", 1)[0].split("[", 1)[0] == "judge"


def judge_measures(results: list[AssertionResult]) -> dict[str, Any]:
    """`judge`: USD spent and model calls sent (cache hits are not calls) by the judged
    assertions of one test."""
    judged = [r for r in results if r.judge is not None or r.cost_usd]
    calls = sum(1 for r in judged if r.judge is not None for v in r.judge.votes
                if not v.cached and not v.replacement_for and v.error is None)
    return {"judge": {"cost_usd": round(sum(r.cost_usd for r in judged), 8), "calls": calls}}
