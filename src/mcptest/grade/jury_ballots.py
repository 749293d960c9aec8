"""An `llm-jury` as the decision sees it: its spec as a `Rule`, each seat as a `Ballot`
(docs/jury.md). The quorum rule and every verdict mode go through `grade/decision.py`.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Protocol

from mcptest.grade.aggregate import reduce_repetitions
from mcptest.grade.decision import Answer, Ballot, JuryRule, SeatState
from mcptest.llm.verdict_modes import VerdictMode
from mcptest.suite.models.verdict_kind import numeric_range

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.llm.contracts import JudgeOutcome
    from mcptest.suite.models import Juror, LlmJurySpec


class SeatLike(Protocol):
    juror: Juror
    outcomes: list[JudgeOutcome]
    replacement_for: str | None
    history: list[tuple[JudgeOutcome, str | None]]


def verdict_mode(spec: LlmJurySpec) -> VerdictMode | None:
    """What each juror is asked to return; None for the quorum rule."""
    if spec.verdict_kind is None:
        return None
    if spec.verdict_kind == "numeric":
        low, high = numeric_range(spec.score_range)
        return VerdictMode(kind="numeric", low=low, high=high)
    if spec.labels:
        return VerdictMode(kind="labeled", labels=tuple(spec.labels))
    return VerdictMode(kind="boolean")


def answer_of(o: JudgeOutcome, mode: VerdictMode) -> Answer | None:
    """One juror's answer in its mode: a label, `pass`/`fail`, or a number in the range."""
    if o.status != "verdict":
        return None
    if mode.kind == "labeled":
        return o.label
    if mode.kind == "numeric":
        return o.value
    return None if o.judge_pass is None else ("pass" if o.judge_pass else "fail")


def passes(answer: Answer | None, spec: LlmJurySpec) -> bool | None:
    """Whether one answer (a juror's or the panel's) passes; None: unknown."""
    if answer is None:
        return None
    if isinstance(answer, float | int) and not isinstance(answer, bool):
        return answer >= spec.threshold
    if spec.labels is None:
        return answer == "pass"
    return None if spec.passing_labels is None else answer in spec.passing_labels


def rule_of(spec: LlmJurySpec, require_judge: bool) -> JuryRule:
    """The jury's rule: the quorum, or its verdict mode's plurality or mean/median."""
    need = spec.min_jurors or 1
    mode = verdict_mode(spec)
    if mode is None:
        return JuryRule(how="quorum", quorum=spec.quorum, min_decisive=need,
                    require_judge=require_judge)
    if mode.kind == "numeric":
        return JuryRule(how="median" if spec.aggregate == "median" else "mean",
                    threshold=spec.threshold, min_decisive=need, space=(mode.low, mode.high),
                    require_judge=require_judge)
    labels = tuple(mode.labels) or ("pass", "fail")
    passing = (frozenset({"pass"}) if mode.kind == "boolean" else
               None if spec.passing_labels is None else frozenset(spec.passing_labels))
    return JuryRule(how="plurality", passing=passing, min_decisive=need, space=labels,
                require_judge=require_judge, categories=len(labels))


def _state(seat: SeatLike, answered: bool) -> SeatState:
    every = [o for o, _ in seat.history] + seat.outcomes
    if any(o.status == "budget_skipped" for o in every):
        return "budget"
    if answered:
        return "answered"
    if not any(o.status == "verdict" for o in seat.outcomes) and any(
            o.status == "deferred" for o in seat.outcomes):
        return "deferred"
    if seat.outcomes and all(o.status == "judge_error" for o in seat.outcomes):
        return "error"
    return "abstained"


def ballot(seat: SeatLike, spec: LlmJurySpec) -> Ballot:
    """One seat: its juror's own median score (quorum), or its repetitions reduced in its mode
    (plurality of labels, mean or median of numbers); its ratings and labels for agreement."""
    mode = verdict_mode(spec)
    ratings = tuple(o.score if o.status == "verdict" else None for o in seat.outcomes)
    if mode is None:
        scores = [o.score for o in seat.outcomes if o.status == "verdict" and o.score is not None]
        score = statistics.median(scores) if scores else None
        return Ballot(state=_state(seat, score is not None), weight=seat.juror.weight,
                      passed=None if score is None else score >= spec.threshold, answer=score,
                      ratings=ratings)
    answers = [a for o in seat.outcomes if (a := answer_of(o, mode)) is not None]
    own = reduce_repetitions(answers, spec.aggregate or "mean")
    labels: tuple[str | None, ...] = ()
    if mode.kind == "labeled":
        ratings = tuple(None for _ in seat.outcomes)
        labels = tuple(o.label if o.status == "verdict" else None for o in seat.outcomes)
    return Ballot(state=_state(seat, own is not None), weight=seat.juror.weight,
                  passed=passes(own, spec), answer=own, ratings=ratings, labels=labels)


def ballots(seats: Sequence[SeatLike], spec: LlmJurySpec) -> list[Ballot]:
    return [ballot(s, spec) for s in seats]
