"""Juror seats a jury lost to an error, as every reporter names them (docs/jury.md, "Lost
seats"): the same words in the terminal, the comment, SARIF and the rest."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.report.vote_models import lost_words

if TYPE_CHECKING:
    from mcptest.report.models import (
        EffectiveJurors,
        JudgeDetail,
        JuryAnalytics,
        Report,
        RunAgreement,
        TestResult,
    )

__all__ = ["effective_text", "has_lost_seat", "juries_with_lost_seats", "lost_text",
           "rests_on", "run_worth"]


def has_lost_seat(judge: JudgeDetail | None) -> bool:
    return bool(judge and judge.jury and judge.jury.lost)


def lost_text(j: JuryAnalytics) -> str:
    """`2 of 3 jurors answered; gemini-2.5-pro: server error (503 …)` (docs/jury.md)."""
    seats = j.seats or 0
    return lost_words(seats - len(j.lost) - j.deferred, seats, j.lost)


def rests_on(j: JuryAnalytics) -> str:
    """` on 2 of 3 jurors` when the agreement rests on fewer jurors than sat."""
    if j.seats is None or j.decisive >= j.seats:
        return ""
    return f" on {j.decisive} of {j.seats} jurors"


def run_worth(d: RunAgreement) -> str:
    """`; rests on 1.3 effective jurors of 3`: the run-level α's (the means over its juries)."""
    if d.jurors is None:
        return ""
    of = f"{d.jurors:.0f}" if float(d.jurors).is_integer() else f"{d.jurors:.1f}"
    if d.effective_jurors is None:
        return f"; effective jurors of {of} not estimated"
    return f"; rests on {d.effective_jurors:.1f} effective jurors of {of}"


def effective_text(e: EffectiveJurors | None) -> str:
    """`rests on 1.3 effective jurors of 3 (votes over 60 juries)`, or why there is no number
    (docs/jury.md, "Effective jurors"); empty for a report without the figure."""
    if e is None:
        return ""
    basis = (f"errors on {e.items} labels" if e.basis == "labels"
             else f"votes over {e.items} juries")
    if e.value is None:
        return f"effective jurors of {e.jurors} not estimated: {e.note or basis}"
    return f"rests on {e.value:.1f} effective jurors of {e.jurors} ({basis})"


def juries_with_lost_seats(report: Report) -> list[tuple[TestResult, JuryAnalytics]]:
    """Every jury of the run that lost a seat to an error, with its test."""
    return [(t, d.jury) for t in report.tests
            for d in [*(a.judge for a in t.assertions), t.judge]
            if d is not None and d.jury is not None and d.jury.lost]
