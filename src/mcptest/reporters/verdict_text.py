"""How the human formats show a jury's verdict mode (docs/jury.md, "Verdict modes"): the
panel's answer, how it was reached, and passed — "unknown" when a labeled jury has no
`passing_labels`, never shown as a pass. Plain text; each format escapes it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.reporters.display import num

if TYPE_CHECKING:
    from mcptest.report.models import JudgeDetail, JudgeVote


def passed_text(passed: bool | None) -> str:
    return "passed unknown" if passed is None else ("passes" if passed else "fails")


def mode_line(judge: JudgeDetail) -> str | None:
    """`labeled verdict friendly (plurality: friendly 2, rude 1) · passed unknown`; None for a
    judge without a verdict mode."""
    if judge.verdict_kind is None:
        return None
    how: str = judge.aggregate or "plurality"
    if judge.tally:
        counts = ", ".join(f"{k} {v:g}" for k, v in
                           sorted(judge.tally.items(), key=lambda kv: -kv[1]))
        how += f" {counts}"
    if judge.verdict_kind == "numeric" and judge.threshold is not None:
        how += f", threshold {judge.threshold:g}"
    if judge.verdict is not None:
        answer = judge.verdict
    elif judge.tally:
        answer = "none (tie)"
    else:  # every juror errored, abstained or was deferred: nothing to tie
        answer = "none (no decisive juror)"
    return f"{judge.verdict_kind} verdict {answer} ({how}) · {passed_text(judge.passed)}"


def vote_answer(v: JudgeVote) -> str:
    """A juror's answer as it gave it: its label, its score in the jury's range, or 0..1."""
    if v.label is not None:
        return v.label
    if v.value is not None:
        return f"{v.value:g}"
    return num(v.score)
