"""Juror seats a jury lost to an error, as every reporter names them (docs/jury.md, "Lost
seats"): the same words in the terminal, the comment, SARIF and the rest."""

from __future__ import annotations

from mcptest.report.models import JudgeDetail, JuryAnalytics, Report, TestResult
from mcptest.report.vote_models import lost_words

__all__ = ["has_lost_seat", "juries_with_lost_seats", "lost_text", "rests_on"]


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


def juries_with_lost_seats(report: Report) -> list[tuple[TestResult, JuryAnalytics]]:
    """Every jury of the run that lost a seat to an error, with its test."""
    return [(t, d.jury) for t in report.tests
            for d in [*(a.judge for a in t.assertions), t.judge]
            if d is not None and d.jury is not None and d.jury.lost]
