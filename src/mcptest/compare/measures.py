"""What one report row measured, read the same way on both sides of a comparison."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from mcptest.report.models import Report, TestResult
from mcptest.report.scores import row_score

Outcome = Literal["pass", "fail", "flaky", "none"]
_OUTCOME: dict[str, Outcome] = {
    "passed": "pass", "deferred": "pass", "failed": "fail", "error": "fail", "flaky": "flaky",
    "skipped": "none", "not_yet_available": "none",
}


@dataclass(frozen=True)
class Measure:
    outcome: Outcome
    passed: int
    """Passing runs (repetitions, or 1/0 for a single run)."""
    runs: int
    score: float | None
    cost_usd: float | None
    """None when the cost is unknown."""


def measure(t: TestResult) -> Measure:
    outcome = _OUTCOME[t.status]
    if t.repeat is not None:
        passed, runs = t.repeat.passed, t.repeat.runs
    else:
        passed, runs = int(outcome == "pass"), int(outcome != "none")
    return Measure(outcome=outcome, passed=passed, runs=runs, score=row_score(t),
                   cost_usd=t.cost_usd if t.cost_known else None)


def report_cost(report: Report) -> float | None:
    """The run's judge and model spend; None when some row's cost is unknown."""
    if not all(t.cost_known for t in report.tests):
        return None
    return report.summary.cost_usd


def comparable(old: TestResult, new: TestResult) -> bool:
    """Same definition; a row from a report written before hashes existed compares by id."""
    if old.definition_hash is None or new.definition_hash is None:
        return True
    return old.definition_hash == new.definition_hash
