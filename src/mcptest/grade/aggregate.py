"""The one jury aggregator: votes from judge outcomes, and the weighted quorum over them.

`llm-jury` assertions (weighted jurors, repetitions, replacements) and eval juries and panels
(docs/evals.md) both decide here, then fold their ratings into `jury.jury_analytics`; neither
keeps a vote or quorum rule of its own (docs/jury.md describes the rule).
"""

from __future__ import annotations

import itertools
import statistics
from collections.abc import Callable, Iterable, Sequence
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
        latency_ms=o.latency_ms, cached=o.cached, deferred=o.status == "deferred")


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


# ------------------------------------------------------------------ early stop (docs/jury.md)

def settled(heads: Sequence[tuple[float, bool]], pending: Sequence[float], quorum: float,
            need: int = 1) -> bool | None:
    """The quorum's answer if no outcome of the `pending` jurors (weights) can change it, else
    None. A pending juror may pass, fail or give no verdict; since a passing head only raises
    the passing fraction and a failing one only lowers it, every combination lies between
    "all pending fail" and "all pending pass", so those two cases decide. `need` decisive
    heads must already be in (`min_jurors`), or the jury could still end inconclusive."""
    if len(heads) < max(1, need):
        return None
    low = weighted_quorum([*heads, *((w, False) for w in pending)], quorum).met
    high = weighted_quorum([*heads, *((w, True) for w in pending)], quorum).met
    return low if low == high else None


def next_wave(heads: Sequence[tuple[float, bool]], pending: Sequence[float], quorum: float,
              need: int = 1) -> int:
    """How many of the `pending` jurors (in order) to ask next: the fewest whose unanimous
    answer settles the quorum whichever it is (pass or fail), so a wave that agrees is the
    last; all of them when no smaller wave can. A wave that settles only one way (one fail of
    a unanimous jury) would ask an agreeing jury one juror at a time: slower, nothing saved."""
    for k in range(1, len(pending)):
        wave, rest = pending[:k], pending[k:]
        if all(settled([*heads, *((w, passed) for w in wave)], rest, quorum, need) is not None
               for passed in (True, False)):
            return k
    return len(pending)


@dataclass(frozen=True)
class Partial:
    """What a jury with unreachable (deferred) heads may say (docs/jury.md, "Partial juries")."""

    decided: bool
    """No vote of the missing heads could change the verdict: decide on the heads present."""
    why: str


def calls_per_grading(asked: Iterable[Sequence[JudgeOutcome]]) -> int:
    """What a juror or panel member that `early_stop` did not ask would have sent: the fewest
    calls one that was asked and reachable sent (its repetitions or a tree's questions; none
    that came from the cache), so the calls saved are a lower bound."""
    return min((sum(1 for o in outcomes if not o.cached) for outcomes in asked), default=0)


def partial(heads: Sequence[tuple[float, bool]], missing: Sequence[float], quorum: float,
            min_heads: int | None = None) -> Partial:
    """Whether the heads present settle the jury whatever the `missing` heads (their weights)
    would have said: pass, fail or abstain.

    The fraction is monotone in each missing vote, so it is enough to try all of them failing
    and all of them passing (abstaining leaves today's fraction, which lies between). With
    `min_heads`, too few decisive heads is inconclusive only if the missing ones could not
    make up the number either; otherwise the jury waits for them.
    """
    if not missing:
        return Partial(True, "")
    n = len(missing)
    if min_heads is not None and len(heads) < min_heads:
        if len(heads) + n >= min_heads:
            return Partial(False, f"{len(heads)} decisive juror(s) of the {min_heads} needed; "
                                  f"the {n} deferred could make up the number")
        return Partial(True, "")
    now = weighted_quorum(heads, quorum).met
    low = weighted_quorum([*heads, *((w, False) for w in missing)], quorum).met
    high = weighted_quorum([*heads, *((w, True) for w in missing)], quorum).met
    if low == high == now and heads:
        return Partial(True, f"{n} juror(s) deferred; no vote of theirs could change the "
                             "verdict")
    return Partial(False, f"{n} juror(s) deferred and their votes could change the verdict "
                          f"({'passes' if high else 'fails'} if they pass, "
                          f"{'passes' if low else 'fails'} if they fail)")


# ------------------------------------------------- verdict modes (docs/jury.md, "Verdict modes")

def plurality(heads: Sequence[tuple[float, str]]) -> tuple[str | None, dict[str, float]]:
    """The answer with the most weight among (weight, answer) heads, and the weight of each
    answer; None when nothing was answered or the top weight is shared (a tie decides
    nothing: the verdict is inconclusive)."""
    weights: dict[str, float] = {}
    for w, answer in heads:
        weights[answer] = weights.get(answer, 0.0) + w
    if not weights:
        return None, weights
    top = max(weights.values())
    winners = [a for a, w in weights.items() if w == top]
    return (winners[0] if len(winners) == 1 else None), weights


def central(values: Sequence[tuple[float, float]], how: str) -> float | None:
    """The weighted mean, or the (unweighted) median, of (weight, value) pairs."""
    if not values:
        return None
    if how == "median":
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


def mode_partial(present: Sequence[tuple[float, str | float]], missing: Sequence[float],
                 outcome: Callable[[Sequence[tuple[float, str | float]]], object],
                 answers: Sequence[str | float]) -> bool:
    """True when no answer of the `missing` heads (their weights) can change `outcome`: every
    mix of `answers` (each label, or the two ends of the score range, which bound a mean or
    median) or no answer at all, one per missing head, gives today's outcome. Callers pass an
    `outcome` that keeps only what decides the status (docs/jury.md, "Partial juries"); past
    4,096 mixes the jury waits rather than guess."""
    now = outcome(present)
    choices: list[str | float | None] = [*answers, None]
    if len(choices) ** len(missing) > 4096:
        return False
    for mix in itertools.product(choices, repeat=len(missing)):
        heads = [*present, *((w, a) for w, a in zip(missing, mix, strict=True) if a is not None)]
        if outcome(heads) != now:
            return False
    return True
