"""A row's judged score, read the same way by repeats, comparisons and reporters."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.report.models import TestResult


def row_score(t: TestResult) -> float | None:
    """The eval's score, else the mean of the judged assertions' scores; a repeated row's is
    the mean over its repetitions (docs/baseline.md)."""
    if t.repeat is not None:
        return t.repeat.score_mean
    if t.judge is not None and t.judge.score is not None:
        return t.judge.score
    scores = [a.judge.score for a in t.assertions if a.judge and a.judge.score is not None]
    return sum(scores) / len(scores) if scores else None


_UNSCORED = ("deferred", "skipped", "not_yet_available")


def measured(t: TestResult) -> bool:
    """Some run of the row produced a verdict (passed, failed or errored); a row none of whose
    runs did (a deferred judge, a skip) is "not measured" (docs/baseline.md, "Repeats")."""
    if t.repeat is not None:
        return t.repeat.measured > 0
    return t.status not in _UNSCORED
