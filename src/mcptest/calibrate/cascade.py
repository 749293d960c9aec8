"""Choosing each tier's threshold by fixed-sequence testing (Jung et al., ICLR 2025, "Trust or
Escalate"), and the agreement the chosen thresholds guarantee (docs/cascade.md).

For one tier, on the labels that reach it, ranked from the most confident down: the threshold
that settles the tier's n surest labels is tested for each count n of `counts_tested`. There the
tier settles n labels (more on a tie), of which k disagree with the humans; the exact binomial
test rejects "its error rate at or above this threshold is more than α" when
P(Binomial(n, α) ≤ k) ≤ δ. Testing stops at the first count it cannot reject; the last one
rejected is the tier's threshold. Because the counts are tested in one order fixed before any
verdict is looked at and stop at the first failure, the chance that any accepted threshold errs
more than α is at most δ (fixed-sequence testing): the tier's agreement on what it settles is at
least 1 − α with probability at least 1 − δ.

Which counts are tested decides what the tier can be trusted with, never whether the promise holds.
They are the steps, the counts at which one more disagreement can pass (all right on the first, at
most one wrong on the second, …), from `start` on, then each count to the last. The start is the
highest step within a third of the labels and no higher than a tier erring at α/2 needs: a first
test on a handful of labels ends the sequence on one confident mistake, and one on nearly all of
them on the unsure mistakes below (the start once jumped from the first step to 97 labels as soon
as 97 reached the tier, so a tier trusted with 80 labels was not with 100). Between two steps a
test allows no more disagreements on more labels, so it could only end the sequence early; after
the last step every count is tested. With more labels the start moves up a step at a time, staying
a third of them or less, and each step allows one more disagreement: adding labels does not remove
the savings fewer allowed (docs/cascade.md, "How a threshold is chosen", shows it by simulation).

The next tier is calibrated on the labels the earlier ones did not settle; the last tier decides
the rest, so its agreement on them is bounded rather than chosen. δ is split evenly over every
bound the cascade's guarantee uses (docs/decisions.md, "Cascades").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from mcptest.calibrate.binomial import (
    labels_needed,
    least_labels,
    min_labels,
    rejects,
    upper_bound,
)
from mcptest.calibrate.cascade_record import CascadeCalibration, TierCalibration
from mcptest.errors import UsageError
from mcptest.grade.confidence import stands

if TYPE_CHECKING:
    from collections.abc import Sequence


@dataclass(frozen=True)
class TierOutput:
    """One tier's answer on one label."""

    passed: bool | None
    """None: no verdict (an error, an abstention, a deferral): the label escalates."""
    confidence: float | None = None
    cost_usd: float = 0.0


@dataclass(frozen=True)
class TierSpec:
    kind: Literal["llm-judge", "llm-jury"]
    models: list[str]


@dataclass(frozen=True)
class Threshold:
    value: float
    settled: int
    errors: int


class TooFewLabels(UsageError):
    """Fewer labels than even a judge that never disagrees would need for the guarantee."""


def fixed_sequence(points: Sequence[tuple[float, bool]], alpha: float, delta: float,
                   counts: Sequence[int] | None = None) -> Threshold | None:
    """The lowest confidence threshold reached by testing down from the top, each test
    rejecting an error rate above `alpha` at level `delta`; None when the first test fails.
    `points` are (confidence, agreed with the humans) of the labels this tier is calibrated on;
    `counts` the counts of labels tested, in order (`counts_tested` unless given)."""
    order = counts_tested(alpha, delta, len(points)) if counts is None else counts
    ranked = sorted(points, key=lambda p: -p[0])
    found: Threshold | None = None
    settled = errors = 0
    cleared = -1  # the errors of the last test that rejected: with no new error it rejects again
    i = step = 0
    while i < len(ranked) and step < len(order):
        value = ranked[i][0]
        while i < len(ranked) and ranked[i][0] == value:
            settled += 1
            errors += not ranked[i][1]
            i += 1
        if settled < order[step]:
            continue  # not a count tested
        while step < len(order) and order[step] <= settled:
            step += 1  # a tie may carry the settled count past several
        # P(Binomial(n, α) ≤ k) falls as n grows: the same errors on more labels pass again
        if errors != cleared and not rejects(errors, settled, alpha, delta):
            break
        cleared = errors
        found = Threshold(value, settled, errors)
    return found


def _steps(alpha: float, delta: float, limit: int) -> list[int]:
    """The counts up to `limit` at which one more disagreement can pass: all right on the
    first, at most one wrong on the second, …"""
    steps = [min_labels(alpha, delta)]
    while steps[-1] <= limit:
        gap = steps[-1] - steps[-2] if len(steps) > 1 else steps[-1] // 2  # they shrink slowly
        steps.append(least_labels(len(steps), alpha, delta, above=steps[-1],
                                  near=steps[-1] + gap))
    return steps[:-1]


def start(alpha: float, delta: float, available: int) -> int:
    """Labels above the first threshold tested, from counts alone: the highest step (a count at
    which one more disagreement can pass) that is at most a third of the `available` labels and
    at most what a tier erring at α/2 needs; with fewer labels, the first step (the fewest any
    test could pass on: the tier's most confident verdicts must then all be right)."""
    floor = min_labels(alpha, delta)
    reach = min(available // 3, labels_needed(alpha / 2, alpha, delta) or floor)
    return max([floor, *_steps(alpha, delta, reach)])


def counts_tested(alpha: float, delta: float, available: int) -> list[int]:
    """The counts of labels the tier is tested on, in order, fixed by the count alone: `start`,
    every step above it, then every count after the last step. A test between two steps allows
    no more disagreements than the step before it, on more labels: it could end the sequence on
    a disagreement the next step allows, so it is not made. After the last step no step comes,
    so every count is tested (the threshold settles as many labels as pass)."""
    first = start(alpha, delta, available)
    if available < first:
        return []
    steps = [n for n in _steps(alpha, delta, available) if n >= first]
    return [*steps, *range(steps[-1] + 1, available + 1)]


def labels_for_guarantee(target: float, risk: float, tiers: int) -> int:
    """Labels the guarantee needs before a tier can be trusted at all."""
    return min_labels(1.0 - target, risk / (tiers + 1))


def check_labels(count: int, target: float, risk: float, tiers: int) -> None:
    """`TooFewLabels` (exit 2) when no tier could ever be trusted with `count` labels."""
    need = labels_for_guarantee(target, risk, tiers)
    if count < need:
        raise TooFewLabels(
            f"{count} label(s) cannot guarantee {target:.0%} agreement at risk {risk:g}: a tier "
            f"is trusted only after at least {need} labels it settles agree with people well "
            f"enough, even if it never disagrees with them; add {need - count} or more (about "
            f"as many fails as passes), or lower --target-agreement or raise --risk")


def _note(points: Sequence[tuple[float, bool]], alpha: float, delta: float) -> str:
    if not points:
        return "no label reached it with a verdict"
    rate = sum(1 for _, ok in points if not ok) / len(points)
    more = labels_needed(rate, alpha, delta)
    if more is None:
        return (f"it disagrees with people on {rate:.0%} of the {len(points)} labels it saw, "
                f"more than the {alpha:.0%} allowed, even where it is most sure: everything "
                "escalates past it")
    return (f"no threshold kept its agreement at the target on {len(points)} labels; at its "
            f"error rate of {rate:.0%} about {more} would let it settle them")


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def calibrate_cascade(human: Sequence[bool], outputs: Sequence[Sequence[TierOutput]],
                      specs: Sequence[TierSpec], target: float, risk: float
                      ) -> tuple[CascadeCalibration, list[tuple[int, bool] | None]]:
    """Each tier's threshold on the labels (outputs[t][i]: tier t on label i, every tier run on
    every label), and per label the (tier, verdict) that decides it (None: no tier could)."""
    count, k = len(human), len(outputs)
    alpha, share = 1.0 - target, risk / (k + 1)
    check_labels(count, target, risk, k)
    decided: list[tuple[int, bool] | None] = [None] * count
    open_ = list(range(count))
    tiers: list[TierCalibration] = []
    reached_last, spend = 0, 0.0
    last_u = 1.0
    trusted_any = False
    for t, (out, spec) in enumerate(zip(outputs, specs, strict=True)):
        last = t == k - 1
        judged = [i for i in open_ if out[i].passed is not None]
        points = [(out[i].confidence or 0.0, out[i].passed == human[i]) for i in judged]
        threshold = None if last else fixed_sequence(points, alpha, share)
        settled = judged if last else [
            i for i in judged if stands(out[i].confidence, threshold.value if threshold else None)]
        errors = sum(1 for i in settled if out[i].passed != human[i])
        cost = _mean([o.cost_usd for o in out])
        if (last or threshold is not None) and cost is not None:
            spend += cost * len(open_) / count
        if last:
            reached_last = len(open_)
            last_u = upper_bound(errors, len(settled), share)
        trusted_any = trusted_any or bool(threshold and settled)
        guaranteed = (None if not settled else 1.0 - last_u if last else target)
        tiers.append(TierCalibration(
            tier=t + 1, kind=spec.kind, models=list(spec.models), last=last,
            threshold=threshold.value if threshold else None, labels=len(judged),
            settled=len(settled), errors=errors, coverage=len(settled) / count,
            agreement=1.0 - errors / len(settled) if settled else None,
            guaranteed_agreement=guaranteed, cost_per_verdict_usd=cost,
            note=None if last or threshold else _note(points, alpha, share),
            confidences=sorted(round(c, 4) for c, _ in points)))
        for i in settled:
            decided[i] = (t, bool(out[i].passed))
        open_ = [i for i in open_ if decided[i] is None]
    # R ≤ A + π⁺·(U − A)⁺: the trusted tiers err at most A = α, the last tier at most U on what
    # reaches it, and at most π⁺ of all items reach it.
    a = alpha if trusted_any else 0.0
    reach = upper_bound(reached_last, count, share)
    bound = a + reach * max(0.0, last_u - a)
    verdicts = [(human[i], d[1]) for i, d in enumerate(decided) if d is not None]
    agreed = sum(1 for h, v in verdicts if h == v)
    record = CascadeCalibration(
        target_agreement=target, risk=risk, risk_per_bound=share, labels=len(verdicts),
        tiers=tiers, guaranteed_agreement=max(0.0, 1.0 - bound),
        agreement=agreed / len(verdicts) if verdicts else None,
        cost_per_verdict_usd=spend, last_tier_cost_per_verdict_usd=tiers[-1].cost_per_verdict_usd)
    return record, decided
