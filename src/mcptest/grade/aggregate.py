"""The jury's arithmetic: votes from judge outcomes, the weighted quorum, the one majority rule
(`plurality`), the mean or median, and a juror's repetitions reduced to one answer.

`grade/decision.py` decides every jury and panel with these (docs/jury.md describes the rules).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from mcptest.suite.families import model_family

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from mcptest.llm.contracts import JudgeOutcome
    from mcptest.report.models import JudgeVote

UNSENT = ("judge_error", "deferred", "budget_skipped")


def vote(o: JudgeOutcome, passed: bool | None, replacement_for: str | None = None) -> JudgeVote:
    """One juror's (or one sample's) vote as the report shows it."""
    from mcptest.report.models import JudgeVote
    model = o.model or "(unresolved)"
    error = None
    if o.status in UNSENT:
        error = f"{o.status}: {o.message}" if o.message else o.status
    return JudgeVote(
        model=model, family=model_family(model) if o.model else None, score=o.score,
        passed=passed if o.score is not None else None, abstained=o.status == "abstained",
        error=error, reason=o.reason, evidence=o.evidence, repetition=o.repetition,
        replacement_for=replacement_for, cost_usd=o.cost_usd, cost_known=o.cost_known,
        latency_ms=o.latency_ms, cached=o.cached, deferred=o.status == "deferred")


@dataclass(frozen=True)
class Tally:
    """How a panel's heads voted, the weighted passing fraction included."""

    passed: int
    """Decisive heads that passed."""
    decisive: int
    """Heads with a verdict (abstentions and failures are not decisive)."""
    fraction: float | None
    """Weight of the passing heads over the weight of the decisive ones, rounded half-up to two
    decimals exactly (2/3 → 0.67, 1/8 → 0.13); None without a decisive head."""
    met: bool
    """fraction ≥ quorum (False when nothing was decided)."""


def weighted_quorum(heads: Sequence[tuple[float, bool]], quorum: float) -> Tally:
    """The jury rule over decisive heads given as (weight, passed)."""
    if not heads:
        return Tally(0, 0, None, False)
    passed = sum(1 for _, ok in heads if ok)
    if all(w == 1 for w, _ in heads):  # unweighted, in integers (Fractions cost ~20 µs a call)
        hundredths = (200 * passed + len(heads)) // (2 * len(heads))
    else:
        total = sum(Fraction(w) for w, _ in heads)
        won = sum((Fraction(w) for w, ok in heads if ok), Fraction(0))
        hundredths = (won * 100 / total + Fraction(1, 2)).__floor__()  # exact half-up rounding
    fraction = hundredths / 100
    return Tally(passed, len(heads), fraction, fraction >= quorum)


def calls_per_grading(asked: Iterable[Sequence[JudgeOutcome]]) -> int:
    """What a juror or panel member that `early_stop` did not ask would have sent: the fewest
    calls one that was asked and reachable sent (its repetitions or a tree's questions; none
    that came from the cache), so the calls saved are a lower bound."""
    return min((sum(1 for o in outcomes if not o.cached) for outcomes in asked), default=0)


# ------------------------------------------------- verdict modes (docs/jury.md, "Verdict modes")

def plurality(heads: Sequence[tuple[float, str]], tie_break: str | None = None
              ) -> tuple[str | None, dict[str, float]]:
    """The one majority rule: the answer with the most weight among (weight, answer) heads,
    and the weight of each answer. When the top weight is shared, `tie_break` wins if it is
    among the tied answers (an eval panel's `tie_break` between pass and fail); otherwise a tie
    decides nothing (None: inconclusive), nor does an empty jury."""
    weights: dict[str, float] = {}
    for w, answer in heads:
        weights[answer] = weights.get(answer, 0.0) + w
    if not weights:
        return None, weights
    top = max(weights.values())
    winners = [a for a, w in weights.items() if w == top]
    if len(winners) == 1:
        return winners[0], weights
    return (tie_break if tie_break in winners else None), weights


def central(values: Sequence[tuple[float, float]], how: str) -> float | None:
    """The weighted mean, or the (unweighted) median, of (weight, value) pairs."""
    if not values:
        return None
    if how == "median":
        import statistics  # a median jury: after the answers, not on the first request's path

        return float(statistics.median(v for _, v in values))
    total = sum(w for w, _ in values)
    return sum(w * v for w, v in values) / total


def reduce_repetitions(answers: Sequence[str | float], how: str) -> str | float | None:
    """One juror's answer over its repetitions: the plurality of its labels (a tie is no
    answer), or the mean or median of its scores."""
    if not answers:
        return None
    if all(isinstance(a, str) for a in answers):
        return plurality([(1.0, str(a)) for a in answers])[0]
    return central([(1.0, float(a)) for a in answers], how)
