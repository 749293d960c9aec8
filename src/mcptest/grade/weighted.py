"""Weighted tiers (docs/cascade.md, "Weighted tiers and a reference"): with `scoring: {mode:
weighted, threshold: t}` a test passes when the weighted mean of its assertions' scores reaches
`t`, instead of when every assertion passes (the gate, still the default).

A deterministic or structural check scores 1 or 0, a judged assertion its judge's score (0..1),
or 1/0 by its verdict when the judge gave none. Judges are still sent after a failed check unless
the threshold has become unreachable even if every remaining assertion scored 1; then they are
skipped and say so. An assertion that could not be scored (a deferred, errored, budget-skipped
or not-yet-available judge) never lets the rest pass: the test takes that status, unless the
threshold is out of reach whatever it would have said, which is a failure.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.report.models import AssertionResult, Status, WeightedScore
from mcptest.suite.models import LLM_MATCHER_KINDS
from mcptest.suite.models.scoring import Scoring

if TYPE_CHECKING:
    from mcptest.plan import PlannedTest

SKIP_UNREACHABLE = "not sent: the weighted score can no longer reach the threshold"
_PENDING_ORDER: tuple[Status, ...] = ("error", "not_yet_available", "skipped", "deferred")
_EPSILON = 1e-9


def weighted_scoring(test: PlannedTest) -> Scoring | None:
    """The test's `scoring:` when it is weighted, else None (the gate)."""
    scoring = getattr(test.spec, "scoring", None)
    return scoring if isinstance(scoring, Scoring) and scoring.mode == "weighted" else None


def _weights(test: PlannedTest) -> dict[int, float]:
    return {p.index: p.assertion.weight for p in test.assertions}


def out_of_reach(test: PlannedTest, scoring: Scoring, done: list[AssertionResult]) -> str | None:
    """Why the judges need not be sent: the checks already lost so much weight that even a
    perfect score on everything else stays under the threshold (None: still reachable)."""
    weights = _weights(test)
    total = sum(weights.values())
    if total <= 0:
        return None
    lost = sum(weights.get(a.index, 1.0) for a in done if a.status != "passed")
    best = (total - lost) / total
    if best + _EPSILON >= scoring.threshold:
        return None
    return f"{SKIP_UNREACHABLE} (at most {best:.2f} < {scoring.threshold:.2f})"


def _score(a: AssertionResult) -> float | None:
    if a.status in ("passed", "failed"):
        judge = a.judge
        if a.matcher in LLM_MATCHER_KINDS and judge is not None and judge.score is not None:
            return min(max(judge.score, 0.0), 1.0)
        return 1.0 if a.status == "passed" else 0.0
    if a.status == "skipped" and (a.message or "").startswith(SKIP_UNREACHABLE):
        return 0.0
    return None


@dataclass(frozen=True)
class WeightedVerdict:
    status: Status
    message: str
    assertions: list[AssertionResult]
    score: WeightedScore


def weighted_verdict(test: PlannedTest, scoring: Scoring, assertions: list[AssertionResult],
                     fallback: Status) -> WeightedVerdict:
    """The test's status, score and annotated assertion rows; `fallback` (the gate's status)
    decides a test whose weights are all 0."""
    weights = _weights(test)
    counted = [a for a in assertions if not a.outside_verdict]
    total = sum(weights.get(a.index, 1.0) for a in counted)
    scores = {a.index: _score(a) for a in counted}
    rows = []
    for a in assertions:
        w = weights.get(a.index, 1.0)
        s = None if a.outside_verdict else scores[a.index]
        share = None if s is None or total <= 0 else round(w * s / total, 6)
        rows.append(a.model_copy(update={"weight": w, "score": s, "contribution": share}))
    t = scoring.threshold
    if total <= 0:
        return WeightedVerdict(fallback, "every weight is 0: the gate decides", rows,
                               WeightedScore(score=None, threshold=t))
    got = sum(weights.get(i, 1.0) * s for i, s in scores.items() if s is not None)
    pending = [a for a in counted if scores[a.index] is None]
    score = round(got / total, 6)
    if not pending:
        passed = score + _EPSILON >= t
        return WeightedVerdict(
            "passed" if passed else "failed",
            f"weighted score {score:.2f} {'≥' if passed else '<'} threshold {t:.2f}", rows,
            WeightedScore(score=score, threshold=t))
    best = round((got + sum(weights.get(a.index, 1.0) for a in pending)) / total, 6)
    result = WeightedScore(score=score, threshold=t, best=best)
    if best + _EPSILON < t:
        return WeightedVerdict("failed", f"weighted score at most {best:.2f} < threshold "
                                         f"{t:.2f}, whatever the unscored assertions say",
                               rows, result)
    status = next(s for s in _PENDING_ORDER if any(a.status == s for a in pending))
    return WeightedVerdict(status, f"weighted score not settled: {len(pending)} assertion(s) "
                                   f"not scored ({status}); {score:.2f} so far, at most "
                                   f"{best:.2f}, threshold {t:.2f}", rows, result)
