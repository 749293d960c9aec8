"""An `llm-jury` with a `verdict_kind`: plurality of labels (or pass/fail), or the mean or
median of numeric scores, instead of the quorum (docs/jury.md, "Verdict modes").

Seating, replacements and repetitions are `jury_seats`'; the decision is `grade/decision.py`'s
(`jury_ballots` turns the seats into ballots); this module words the assertion. A labeled jury
without `passing_labels` records its label and leaves passed unknown: the assertion is `skipped`
with a message starting "unknown", so the run exits 4 and never passes CI as a pass
(docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from mcptest.grade.aggregate import vote
from mcptest.grade.decision import Answer, Decision, decide, unsettled
from mcptest.grade.jury import decision_analytics
from mcptest.grade.jury_ballots import (
    SeatLike,
    answer_of,
    ballots,
    passes,
    rule_of,
    verdict_mode,
)
from mcptest.grade.jury_seats import lost_seats, seat_refusal
from mcptest.grade.rows import assertion_result
from mcptest.report.models import (
    AssertionResult,
    JudgeDetail,
    JudgeVote,
    JuryAnalytics,
    Status,
)

if TYPE_CHECKING:
    from mcptest.llm.contracts import JudgeOutcome
    from mcptest.llm.engine import JudgeEngine
    from mcptest.llm.verdict_modes import VerdictMode
    from mcptest.plan import PlannedAssertion
    from mcptest.suite.models import LlmJurySpec

__all__ = ["mode_jury", "verdict_mode"]


def _vote(o: JudgeOutcome, spec: LlmJurySpec, mode: VerdictMode,
          replacement_for: str | None) -> JudgeVote:
    answer = answer_of(o, mode)
    v = vote(o, passes(answer, spec), replacement_for)
    label = o.label if mode.kind != "boolean" else answer  # `pass` / `fail` as answered
    return v.model_copy(update={"label": label, "value": o.value,
                                "passed": passes(answer, spec)})


def _show(answer: Answer | None) -> str:
    if answer is None:
        return "none"
    return f"{answer:g}" if isinstance(answer, float) else str(answer)


def mode_jury(planned: PlannedAssertion, spec: LlmJurySpec, seats: list[SeatLike],
              generator: str | None, engine: JudgeEngine, start: float) -> AssertionResult:
    """The assertion of a jury decided by its verdict mode; never raises for judge trouble."""
    mode = verdict_mode(spec)
    assert mode is not None
    how = spec.aggregate or "mean"
    outcomes = [o for s in seats for o, _ in s.history] + [o for s in seats for o in s.outcomes]
    votes = [_vote(o, spec, mode, rf) for s in seats for o, rf in s.history] + [
        _vote(o, spec, mode, s.replacement_for) for s in seats for o in s.outcomes]
    cast = ballots(seats, spec)
    d = decide(cast, rule_of(spec, engine.options.require_judge))
    answer, passed = d.answer, d.passed
    score = None
    if mode.kind == "numeric" and isinstance(answer, float):
        score = (answer - mode.low) / (mode.high - mode.low)

    def result(status: Status, message: str,
               analytics: JuryAnalytics | None = None) -> AssertionResult:
        detail = JudgeDetail(
            kind="llm-jury", rubric=spec.rubric, score=score,
            display_score=None if score is None else _show(answer),
            threshold=spec.threshold if mode.kind == "numeric" else None, votes=votes,
            jury=analytics, verdict_kind=mode.kind,
            verdict=None if answer is None else _show(answer), passed=passed,
            aggregate=how if mode.kind == "numeric" else "plurality", tally=dict(d.tally))
        return assertion_result(planned, status, message=message, start=start, judge=detail,
                                cost_usd=sum(o.cost_usd for o in outcomes),
                                cached=bool(outcomes) and all(o.cached for o in outcomes))

    missing = [b for b in cast if b.state == "deferred"]
    why = next((o.message for s, b in zip(seats, cast, strict=True) if b.state == "deferred"
                for o in s.outcomes if o.status == "deferred"), None)
    budget = next((o for o in outcomes if o.status == "budget_skipped"), None)
    errors = [o for o in outcomes if o.status == "judge_error"]
    said = unsettled(d, seats=len(seats), who="juror(s)", deferred_why=why,
                     budget_why=None if budget is None else budget.message,
                     last_error=(f"judge error ({errors[-1].model}): {errors[-1].message}"
                                 if errors else None))
    if said is not None:
        return result(*said)
    note = f"; {len(missing)} juror(s) deferred; no answer of theirs could change it" \
        if missing else ""
    values = [b.answer for b in cast if b.state == "answered" and b.answer is not None]
    lost, lost_text = lost_seats(seats)
    analytics = _analytics(d, seats, generator).model_copy(
        update={"seats": len(seats), "lost": lost})
    refusal = seat_refusal(lost_text, spec.strict_panel, engine.options.require_judge)
    if refusal is not None:
        return result("failed", refusal, analytics)
    note += f"; {lost_text}" if lost_text else (f"; {len(errors)} judge error(s)"
                                                 if errors else "")
    return _worded(d, spec, mode, values, note, result, analytics)


_Result = Callable[[Status, str, JuryAnalytics], AssertionResult]
"""`mode_jury`'s `result`: an assertion with the given status, message and analytics."""


def _worded(d: Decision, spec: LlmJurySpec, mode: VerdictMode, values: list[Answer],
            note: str, result: _Result, analytics: JuryAnalytics) -> AssertionResult:
    """The assertion of a decided mode jury, in words."""
    need = spec.min_jurors or 1
    answer, passed = d.answer, d.passed
    if d.decisive < need:
        return result("failed", f"inconclusive: {d.decisive} decisive juror(s), need {need}",
                      analytics.model_copy(update={"verdict": "inconclusive"}))
    if mode.kind == "numeric":
        assert isinstance(answer, float)
        cmp = "≥" if passed else "<"
        return result("passed" if passed else "failed",
                      f"panel {spec.aggregate or 'mean'} {answer:g} {cmp} threshold "
                      f"{spec.threshold:g} (jurors: {', '.join(map(_show, values))}){note}",
                      analytics)
    counts = ", ".join(f"{k} {v:g}" for k, v in sorted(d.tally.items(), key=lambda kv: -kv[1]))
    if answer is None:
        top = max(d.tally.values())
        tied = " and ".join(f"`{k}`" for k, v in d.tally.items() if v == top)
        return result("failed", f"inconclusive: tie between {tied} ({counts}){note}",
                      analytics)
    if passed is None:
        return result("skipped", f"unknown: plurality label `{answer}` ({counts}); no "
                                 f"`passing_labels`, so passed is unknown{note}", analytics)
    if mode.kind == "boolean":
        return result("passed" if passed else "failed", f"plurality {answer} ({counts}){note}",
                      analytics)
    which = "a passing label" if passed else (
        f"not a passing label ({', '.join(spec.passing_labels or [])})")
    return result("passed" if passed else "failed",
                  f"plurality label `{answer}` is {which} ({counts}){note}", analytics)


def _analytics(d: Decision, seats: list[SeatLike], generator: str | None) -> JuryAnalytics:
    """The jury analytics of docs/jury.md: a panel, so no quorum or passing fraction."""
    analytics = decision_analytics(d, juror_models=[s.juror.model for s in seats],
                                   generator_model=generator, quorum=0.5)
    return analytics.model_copy(update={"panel": True, "passed_fraction": None})
