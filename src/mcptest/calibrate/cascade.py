"""Choosing each tier's threshold by fixed-sequence testing (Jung et al., ICLR 2025, "Trust or
Escalate"), and the agreement the chosen thresholds guarantee (docs/cascade.md).

For one tier, on the labels that reach it: every confidence it showed is a candidate threshold,
tested from the most confident down. At a threshold λ the tier settles the n(λ) labels with
confidence ≥ λ, of which k(λ) disagree with the humans; the exact binomial test rejects "its
error rate above λ is more than α" when P(Binomial(n(λ), α) ≤ k(λ)) ≤ δ. Testing stops at the
first threshold it cannot reject; the last one rejected is the tier's threshold. Because the
thresholds are tested in one fixed order and stop at the first failure, the chance that any
accepted threshold errs more than α is at most δ (fixed-sequence testing): the tier's agreement
on what it settles is at least 1 − α with probability at least 1 − δ.

Where the sequence starts matters: a first test on a handful of labels fails on one confident
mistake and ends the sequence before it began. It starts at the first threshold with enough
labels above it that a tier erring half as often as allowed would pass (`start`; with fewer
labels than that, at the fewest any test could pass on), a count that depends on α, δ and how
many labels reached the tier, never on which of them the tier got right, so the order stays
fixed in advance (the paper's code starts at 30 labels for the same reason).

The next tier is calibrated on the labels the earlier ones did not settle; the last tier decides
the rest, so its agreement on them is bounded rather than chosen. δ is split evenly over every
bound the cascade's guarantee uses (docs/decisions.md, "Cascades").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from mcptest.calibrate.binomial import labels_needed, min_labels, rejects, upper_bound
from mcptest.calibrate.cascade_record import CascadeCalibration, TierCalibration
from mcptest.errors import UsageError
from mcptest.grade.confidence import stands


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


def fixed_sequence(points: Sequence[tuple[float, bool]], alpha: float, delta: float
                   ) -> Threshold | None:
    """The lowest confidence threshold reached by testing down from the top, each test
    rejecting an error rate above `alpha` at level `delta`; None when the first test fails.
    `points` are (confidence, agreed with the humans) of the labels this tier is calibrated on."""
    need = start(alpha, delta, len(points))
    ranked = sorted(points, key=lambda p: -p[0])
    found: Threshold | None = None
    settled = errors = 0
    i = 0
    while i < len(ranked):
        value = ranked[i][0]
        while i < len(ranked) and ranked[i][0] == value:
            settled += 1
            errors += not ranked[i][1]
            i += 1
        if settled < need:
            continue  # no test could pass yet: the sequence has not started
        if not rejects(errors, settled, alpha, delta):
            break
        found = Threshold(value, settled, errors)
    return found


def start(alpha: float, delta: float, available: int) -> int:
    """Labels above the first threshold tested: enough for a tier erring at α/2 to pass when
    that many reached it; with fewer, the fewest any test could pass on (the tier's most
    confident verdicts must then all be right)."""
    floor = min_labels(alpha, delta)
    half = labels_needed(alpha / 2, alpha, delta) or floor
    return half if half <= available else floor


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
