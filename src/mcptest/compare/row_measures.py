"""What one report row measured, read the same way on both sides of a comparison.

Only scored runs count (docs/baseline.md, "Repeats"): a deferred, skipped or not-yet-available
run is neither a pass nor a fail, so a row none of whose runs was scored measured nothing.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mcptest.report.scores import row_score

if TYPE_CHECKING:
    from mcptest.report.models import Report, TestResult

Outcome = Literal["pass", "fail", "flaky", "none"]
_OUTCOME: dict[str, Outcome] = {
    "passed": "pass", "deferred": "none", "failed": "fail", "error": "fail", "flaky": "flaky",
    "skipped": "none", "not_yet_available": "none",
}
_MECHANICAL = ("transport", "protocol", "suite", "tool-error", "shape", "environment", "budget",
               "replay")


@dataclass(frozen=True)
class Measure:
    outcome: Outcome
    passed: int
    """Passing scored runs (repetitions, or 1/0 for a single run)."""
    runs: int
    """Scored runs: the pass rate's denominator."""
    score: float | None
    cost_usd: float | None
    """None when the cost is unknown."""


def measure(t: TestResult) -> Measure:
    if t.selection is not None:  # its scored prompts are its runs (docs/selection.md)
        passed, runs = t.selection.won, t.selection.scored
        outcome = _OUTCOME[t.status] if runs else "none"
    elif t.repeat is not None:
        passed, runs = t.repeat.passed, t.repeat.measured
        outcome = _OUTCOME[t.status] if runs else "none"
    else:
        outcome = _OUTCOME[t.status]
        passed, runs = int(outcome == "pass"), int(outcome != "none")
    return Measure(outcome=outcome, passed=passed, runs=runs, score=row_score(t),
                   cost_usd=t.cost_usd if t.cost_known else None)


def judged(t: TestResult) -> bool:
    """Whether the row's failure rests on a model's answer (a judge's verdict, an eval, an
    agent's run): then one run of it is a sample, not a verdict. A failure of the server, the
    transport or a deterministic check is not (docs/baseline.md, "When is it a regression")."""
    if t.kind in ("eval", "agent"):  # a model's answer, whatever check it then failed
        return t.gap not in ("transport", "protocol", "environment", "budget", "replay")
    if t.gap in _MECHANICAL:
        return False
    failing = [a for a in t.assertions if a.status in ("failed", "error")]
    kinds = judged_kinds()
    return bool(failing) and all(a.matcher in kinds or a.target.startswith("jury.")
                                 for a in failing)


@functools.cache
def judged_kinds() -> frozenset[str]:
    """The matcher table's judged kinds (`MatcherKind.judged`), in every spelling a report may
    carry: reports written before the one spelling say `eval.rubric` (docs/decisions.md).
    Imported on first use: `mcptest diff` reads two reports and builds no suite model before
    a row needs it."""
    from mcptest.suite.models.kind_aliases import MATCHER_KIND_ALIASES
    from mcptest.suite.models.matcher_kinds import LLM_MATCHER_KINDS

    return LLM_MATCHER_KINDS | {spelling for spelling, kind in MATCHER_KIND_ALIASES.items()
                                if kind in LLM_MATCHER_KINDS}


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
