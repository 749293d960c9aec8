"""An anytime-valid confidence sequence for a pass rate, and the stopping rule of adaptive
repeats built on it.

The sequence is the beta-binomial mixture of Robbins (1970) (Howard, Ramdas, McAuliffe & Sekhon,
"Time-uniform, nonparametric, nonasymptotic confidence sequences", Ann. Statist. 49, 2021): for
each candidate rate r the mixture likelihood ratio

    M_n(r) = B(a + S, b + F) / B(a, b) / (r^S · (1 − r)^F)

after S passes and F failures is a nonnegative martingale when r is the true rate, so by Ville's
inequality it ever reaches 1/α with probability at most α. The rates it has not reached form an
interval that holds at every n at once: a row may be looked at after every run and stopped
whenever the interval clears its threshold, without the false alarms that checking a fixed
interval again and again gives. a = b = ½ (Jeffreys' prior) keeps it narrow near 0 and 1.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

from mcptest.stats.intervals import wilson

PRIOR = 0.5
"""a = b of the beta mixing distribution."""


def _log_beta(a: float, b: float) -> float:
    return math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)


def log_mixture_ratio(passes: int, runs: int, rate: float, prior: float = PRIOR) -> float:
    """log M_n(rate); +inf where the rate is impossible (0 with a pass, 1 with a failure)."""
    fails = runs - passes
    if (rate <= 0 and passes) or (rate >= 1 and fails):
        return math.inf
    log_lik = (passes * math.log(rate) if passes else 0.0) + (
        fails * math.log1p(-rate) if fails else 0.0)
    return _log_beta(prior + passes, prior + fails) - _log_beta(prior, prior) - log_lik


def confidence_sequence(passes: int, runs: int, alpha: float = 0.05, prior: float = PRIOR
                        ) -> tuple[float, float]:
    """The rates the mixture has not ruled out at level α after `passes` of `runs`."""
    if runs == 0:
        return 0.0, 1.0
    bound = math.log(1 / alpha)
    mle = passes / runs

    def inside(r: float) -> bool:
        return log_mixture_ratio(passes, runs, r, prior) < bound

    def edge(out: float, inn: float) -> float:
        for _ in range(60):
            mid = (out + inn) / 2
            if inside(mid):
                inn = mid
            else:
                out = mid
        return inn

    low = 0.0 if inside(0.0) else edge(0.0, mle)
    high = 1.0 if inside(1.0) else edge(1.0, mle)
    return low, high


Decision = Literal["met", "not-met"]


@dataclass(frozen=True)
class Settled:
    """Where a repeated row stands: `decision` None while open; `by` says what settled it:
    the confidence sequence (`sequence`), the fixed-count rule no longer able to change
    (`curtailed`), or the last allowed run (`limit`)."""

    decision: Decision | None
    by: Literal["sequence", "curtailed", "limit"] | None


def fixed_need(threshold: float, most: int, on_lower_bound: bool = False) -> int:
    """The fewest passes of `most` runs that meet `threshold` as a fixed count would: on the
    rate (passes/most ≥ threshold), or on the lower end of its Wilson 95% interval; `most` + 1
    when no count can (a lower bound never reaches 1, so a threshold of 1 stays on the rate)."""
    if not on_lower_bound or threshold >= 1.0:
        return math.ceil(threshold * most - 1e-9)
    for k in range(most + 1):
        ends = wilson(k, most)
        if ends is not None and ends[0] >= threshold - 1e-12:
            return k
    return most + 1


def settle(passes: int, runs: int, threshold: float, most: int, alpha: float = 0.05,
           on_lower_bound: bool = False) -> Settled:
    """Whether a row's pass rate meets `threshold` is known after `passes` of `runs`, with at
    most `most` runs allowed. It is known when the confidence sequence lies wholly on one side
    of the threshold; or when `most` runs could no longer change the fixed-count answer
    (`fixed_need`: on the rate, or with `on_lower_bound` on its Wilson lower end), which stops
    as soon as the answer is certain (curtailment); or at `most` runs, where the fixed count
    decides."""
    need = fixed_need(threshold, most, on_lower_bound)
    if runs >= most:
        return Settled("met" if passes >= need else "not-met", "limit")
    low, high = confidence_sequence(passes, runs, alpha)
    if high < threshold:
        return Settled("not-met", "sequence")
    if low >= threshold:
        return Settled("met", "sequence")
    if passes >= need:
        return Settled("met", "curtailed")
    if passes + (most - runs) < need:
        return Settled("not-met", "curtailed")
    return Settled(None, None)


NEAR = 0.1
"""A judged score this close to its judge's threshold is one verdict that could go either way."""


def needs_repeats(passed: bool, baseline_passed: bool | None, score: float | None = None,
                  threshold: float | None = None, near: float = NEAR) -> bool:
    """Whether a row's first run leaves its answer open under `repeat: adaptive`: it failed, or
    it changed against the baseline, or its judged score sits within `near` of the judge's
    threshold. A row that passed as it did on the baseline, clear of its threshold, is settled
    by one run."""
    if not passed:
        return True
    if baseline_passed is not None and baseline_passed != passed:
        return True
    return score is not None and threshold is not None and abs(score - threshold) < near
