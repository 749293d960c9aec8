"""Jury analytics (docs/jury.md): the decision's agreement, band and escalation, and the family
check, folded into the report's `JuryAnalytics`.

The decision (`grade/decision.py`) gives the verdict and the agreement; the analytics say how far
to trust it. A split jury keeps its verdict but is marked for human review (`escalate`), and a
low-agreement jury with a juror from the generator's own family carries a `bias_warning`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from mcptest.grade.aggregate import Tally, weighted_quorum
from mcptest.grade.agreement import (
    Agreement,
    confidence_band,
    jury_agreement,
    krippendorff_alpha_interval,
    run_agreement,
)
from mcptest.report.models import JuryAnalytics
from mcptest.suite.families import (
    model_family,
    same_family,
    shared_family_jurors,
    strict_panel_violations,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.grade.decision import Decision

__all__ = [
    "confidence_band",
    "decision_analytics",
    "jury_agreement",
    "jury_analytics",
    "krippendorff_alpha_interval",
    "model_family",
    "passed_fraction",
    "quorum_met",
    "run_agreement",
    "same_family",
    "strict_panel_violations",
]

Verdict = Literal["passed", "failed", "inconclusive"]


def _check_counts(passed: int, decisive: int) -> None:
    if decisive < 0 or passed < 0 or passed > decisive:
        raise ValueError(f"need 0 <= passed <= decisive, got passed={passed}, decisive={decisive}")


def passed_fraction(passed: int, decisive: int) -> float | None:
    """passed/decisive rounded half-up to two decimals, exactly (1/8 → 0.13); None without votes.

    Exact integer rounding, so 2/3 is 0.67 and 0.125 is not rounded down by binary float.
    """
    _check_counts(passed, decisive)
    return _unweighted(passed, decisive, 0.0).fraction


def quorum_met(passed: int, decisive: int, quorum: float) -> bool:
    """The jury rule: the rounded fraction of decisive jurors that passed is ≥ quorum.

    2/3 meets 0.67, 1/3 does not; 2/4 meets 0.5 and fails 0.6; quorum 1.0 fails on one dissent.
    No decisive juror → False (nothing was decided).
    """
    _check_counts(passed, decisive)
    return _unweighted(passed, decisive, quorum).met


def _unweighted(passed: int, decisive: int, quorum: float) -> Tally:
    return weighted_quorum([(1.0, True)] * passed + [(1.0, False)] * (decisive - passed), quorum)


def _bias_message(
    juror_models: Sequence[str], generator_model: str, agreement_raw: float | None
) -> str:
    family = model_family(generator_model)
    jurors = ", ".join(shared_family_jurors(juror_models, generator_model))
    alpha = "undefined" if agreement_raw is None else f"{agreement_raw:.3f}"
    return (
        f"low juror agreement (alpha {alpha}) with juror(s) {jurors} from the {family} "
        f"family of the generator model {generator_model}: the verdict may reflect "
        f"self-preference; review it by hand"
    )


def jury_analytics(
    agreement: Agreement | None,
    *,
    juror_models: list[str],
    generator_model: str | None,
    quorum: float,
    passed_jurors: int,
    decisive: int,
    verdict: str,
) -> JuryAnalytics:
    """The analytics attached to one jury result.

    `agreement`: the decision's (None: undefined, as with fewer than two decisive jurors).
    `juror_models`: the models that sat on the jury (for `same_family`). `generator_model`: the
    model that wrote the graded answer (agent tests), None for tool tests.
    """
    _check_counts(passed_jurors, decisive)
    a = agreement if agreement is not None and decisive >= 2 else None
    raw = a.raw if a is not None else None
    confidence = confidence_band(raw)
    low = confidence == "low"
    shared = same_family(juror_models, generator_model)
    warning = (
        _bias_message(juror_models, generator_model, raw)
        if shared and low and generator_model is not None
        else None
    )
    return JuryAnalytics(
        agreement=a.value if a is not None else None,
        agreement_raw=raw,
        units=a.units if a is not None else 0,
        answers_raw=a.answers_raw if a is not None else None,
        votes_raw=a.votes_raw if a is not None else None,
        confidence=confidence,
        escalate=low,
        same_family=shared,
        bias_warning=warning,
        decisive=decisive,
        passed_jurors=passed_jurors,
        passed_fraction=passed_fraction(passed_jurors, decisive),
        quorum=quorum,
        verdict=verdict,  # pydantic validates the literal
    )


def decision_analytics(decision: Decision, *, juror_models: list[str],
                       generator_model: str | None, quorum: float) -> JuryAnalytics:
    """`jury_analytics` of a decided jury: its agreement, counts and verdict."""
    verdict = {"passed": "passed", "failed": "failed", "unknown": "unknown"}.get(
        decision.outcome, "inconclusive")
    return jury_analytics(decision.agreement, juror_models=juror_models,
                          generator_model=generator_model, quorum=quorum,
                          passed_jurors=decision.passed_n, decisive=decision.decisive,
                          verdict=verdict)
