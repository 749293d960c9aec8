"""The one jury aggregator: votes from judge outcomes, and the weighted quorum over them.

`llm-jury` assertions (weighted jurors, repetitions, replacements) and eval juries and panels
(docs/evals.md) both decide here, then fold their ratings into `jury.jury_analytics`; neither
keeps a vote or quorum rule of its own (docs/jury.md describes the rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from mcptest.llm.contracts import JudgeOutcome
from mcptest.report.models import JudgeVote
from mcptest.suite.families import model_family

UNSENT = ("judge_error", "deferred", "budget_skipped")


def vote(o: JudgeOutcome, passed: bool | None, replacement_for: str | None = None) -> JudgeVote:
    """One juror's (or one sample's) vote as the report shows it."""
    model = o.model or "(unresolved)"
    error = None
    if o.status in UNSENT:
        error = f"{o.status}: {o.message}" if o.message else o.status
    return JudgeVote(
        model=model, family=model_family(model) if o.model else None, score=o.score,
        passed=passed if o.score is not None else None, abstained=o.status == "abstained",
        error=error, reason=o.reason, evidence=o.evidence, repetition=o.repetition,
        replacement_for=replacement_for, cost_usd=o.cost_usd, cost_known=o.cost_known,
        latency_ms=o.latency_ms,
        cached=o.cached)


@dataclass(frozen=True)
class Tally:
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
    total = sum(Fraction(w) for w, _ in heads)
    won = sum((Fraction(w) for w, ok in heads if ok), Fraction(0))
    hundredths = (won * 100 / total + Fraction(1, 2)).__floor__()  # exact half-up rounding
    fraction = hundredths / 100
    return Tally(sum(1 for _, ok in heads if ok), len(heads), fraction, fraction >= quorum)
