"""`llm-judge` and `llm-jury` grading over the judge engine (docs/judges.md, docs/jury.md).

Status mapping: a deferred judge is `deferred` (or `failed` under require_judge), a budget
refusal `skipped` ("budget: …"), a mechanical judge failure `error`, an inconclusive jury or a
lone judge that abstained `failed`. Nothing here imports litellm: the engine does, lazily.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.grade.aggregate import calls_per_grading, vote
from mcptest.grade.decision import Decision, budget_words, decide, unsettled
from mcptest.grade.jury import decision_analytics
from mcptest.grade.jury_ballots import ballots, rule_of
from mcptest.grade.jury_seats import LlmContext, lost_seats, seat_jury, seat_refusal
from mcptest.grade.rows import assertion_result
from mcptest.grade.verdict_jury import mode_jury
from mcptest.llm.contracts import JudgeOutcome, JudgeRequest
from mcptest.report.models import AssertionResult, JudgeDetail, JudgeVote, Status
from mcptest.suite.models import (
    LlmJudgeMatcher,
    LlmJudgeSpec,
    LlmJuryMatcher,
    LlmJurySpec,
)

if TYPE_CHECKING:
    from mcptest.grade.judged_call import JudgedCall
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion


def _vote(o: JudgeOutcome, threshold: float, replacement_for: str | None = None) -> JudgeVote:
    return vote(o, None if o.score is None else o.score >= threshold, replacement_for)


def _result(planned: PlannedAssertion, status: Status, start: float,
            outcomes: list[JudgeOutcome], detail: JudgeDetail, message: str | None,
            ) -> AssertionResult:
    return assertion_result(planned, status, message=message, start=start, judge=detail,
                            cost_usd=sum(o.cost_usd for o in outcomes),
                            cached=bool(outcomes) and all(o.cached for o in outcomes))


def _unsent(o: JudgeOutcome, engine: JudgeEngine) -> tuple[Status, str]:
    """Status and message for an outcome without a verdict (deferred, budget, error)."""
    if o.status == "deferred":
        if engine.options.require_judge:
            return "failed", f"judge required but unavailable: {o.message}"
        return "deferred", f"deferred: {o.message}"
    if o.status == "budget_skipped":
        return "skipped", budget_words(o.message)
    if o.error_kind == "unreachable":  # nothing was sent: the CI environment's problem
        return "error", f"{o.message} ({o.model})"
    return "error", f"judge error ({o.model}): {o.message}"


_UNSENT = ("deferred", "budget_skipped", "judge_error")


async def grade_llm_jury(call: JudgedCall) -> AssertionResult:
    """Grade one `llm-jury` assertion; never raises for judge trouble."""
    return await jury_assertion(call.planned, call.candidate, LlmContext.of(call.test),
                                call.engine)


async def judge_assertion(planned: PlannedAssertion, candidate: Any, ctx: LlmContext,
                          engine: JudgeEngine) -> AssertionResult:
    m = planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    return await _judge(planned, m.llm_judge, candidate, ctx, engine)


async def jury_assertion(planned: PlannedAssertion, candidate: Any, ctx: LlmContext,
                         engine: JudgeEngine) -> AssertionResult:
    m = planned.assertion.matcher
    assert isinstance(m, LlmJuryMatcher)
    return await _jury(planned, m.llm_jury, candidate, ctx, engine)


async def grade_tier(planned: PlannedAssertion, spec: LlmJudgeSpec | LlmJurySpec,
                     candidate: Any, ctx: LlmContext, engine: JudgeEngine) -> AssertionResult:
    """One tier of an escalation cascade, graded as that judge or jury alone would be."""
    if isinstance(spec, LlmJudgeSpec):
        return await _judge(planned, spec, candidate, ctx, engine)
    return await _jury(planned, spec, candidate, ctx, engine)


async def _judge(planned: PlannedAssertion, spec: LlmJudgeSpec, candidate: Any,
                 ctx: LlmContext, engine: JudgeEngine) -> AssertionResult:
    start = time.perf_counter()
    o = await engine.judge(JudgeRequest(rubric=spec.rubric, candidate=candidate,
                                        model=spec.model, base_url=spec.base_url,
                                        defaults=ctx.defaults, reference=ctx.reference))
    detail = JudgeDetail(kind="llm-judge", rubric=spec.rubric, score=o.score,
                         display_score=None if o.score is None else f"{o.score:.2f}",
                         threshold=spec.threshold, votes=[_vote(o, spec.threshold)])
    if o.status in _UNSENT:
        status, msg = _unsent(o, engine)
        return _result(planned, status, start, [o], detail, msg)
    if o.status == "abstained":
        return _result(planned, "failed", start, [o], detail,
                       f"inconclusive: judge {o.model} abstained ({o.reason})")
    assert o.score is not None
    passed = o.score >= spec.threshold
    why = f"score {o.score:.2f} {'≥' if passed else '<'} threshold {spec.threshold:.2f}"
    return _result(planned, "passed" if passed else "failed", start, [o], detail,
                   f"{why}: {o.reason}" if o.reason else why)


# --------------------------------------------------------------------------------------- jury


async def _jury(planned: PlannedAssertion, spec: LlmJurySpec, candidate: Any,
                ctx: LlmContext, engine: JudgeEngine) -> AssertionResult:
    start = time.perf_counter()
    seats, unasked = await seat_jury(spec, candidate, ctx, engine)
    if spec.verdict_kind is not None:  # plurality or mean/median (docs/jury.md)
        return mode_jury(planned, spec, list(seats), ctx.generator_model, engine, start)
    saved = unasked * calls_per_grading(s.outcomes for s in seats if not s.deferred)
    outcomes = [o for s in seats for o, _ in s.history] + [o for s in seats for o in s.outcomes]
    votes = [_vote(o, spec.threshold, rf) for s in seats for o, rf in s.history] + [
        _vote(o, spec.threshold, s.replacement_for) for s in seats for o in s.outcomes]
    cast = ballots(seats, spec)
    d = decide(cast, rule_of(spec, engine.options.require_judge))
    scored = [(b.weight, float(b.answer)) for b in cast if b.answer is not None]
    weight = sum(w for w, _ in scored)
    score = sum(w * a for w, a in scored) / weight if scored else None

    def detail(analytics: Any = None) -> JudgeDetail:
        return JudgeDetail(kind="llm-jury", rubric=spec.rubric, score=score,
                           display_score=None if score is None else f"{score:.2f}",
                           threshold=spec.threshold, votes=votes, jury=analytics)

    missing = [s for s in seats if s.deferred]
    first_why = next((o for s in missing for o in s.outcomes if o.status == "deferred"), None)
    budget = next((o for o in outcomes if o.status == "budget_skipped"), None)
    errors = [o for o in outcomes if o.status == "judge_error"]
    said = unsettled(d, seats=len(seats), who="juror(s)",
                     deferred_why=None if first_why is None else first_why.message,
                     budget_why=None if budget is None else budget.message,
                     last_error=_unsent(errors[-1], engine)[1] if errors else None,
                     waiting=_waiting(d, spec) if d.outcome == "deferred" else None)
    if said is not None:
        return _result(planned, said[0], start, outcomes, detail(), said[1])
    analytics = decision_analytics(d, juror_models=[s.juror.model for s in seats],
                                   generator_model=ctx.generator_model, quorum=spec.quorum)
    lost, lost_text = lost_seats(seats)
    update: dict[str, Any] = {"deferred": len(missing), "seats": len(seats), "lost": lost}
    if analytics.passed_fraction != d.fraction and d.fraction is not None:
        update["passed_fraction"] = d.fraction
    if spec.early_stop:
        update.update(jurors_asked=len(seats), calls_saved=saved)
    analytics = analytics.model_copy(update=update)
    tally = f"{d.passed_n}/{d.decisive} decisive jurors passed"
    if d.fraction is not None:
        tally += f" (fraction {d.fraction:.2f}, quorum {spec.quorum:.2f})"
    if lost_text:
        tally += f"; {lost_text}"
    elif errors:  # failed, then stood in for
        tally += f"; {len(errors)} judge error(s)"
    if unasked:
        tally += f"; early stop: settled by {len(seats)} of {len(spec.jurors)} jurors" + (
            f", {saved} call(s) saved" if saved else "")
    if missing and d.decisive >= (spec.min_jurors or 1):
        tally += f"; {len(missing)} juror(s) deferred; no vote of theirs could change the verdict"
    refusal = seat_refusal(lost_text, spec.strict_panel, engine.options.require_judge)
    if refusal is not None:
        return _result(planned, "failed", start, outcomes, detail(analytics), refusal)
    if d.outcome == "inconclusive":
        need = spec.min_jurors or 1
        return _result(planned, "failed", start, outcomes, detail(analytics),
                       f"inconclusive: {d.decisive} decisive juror(s), need {need}; {tally}")
    return _result(planned, "passed" if d.passed else "failed", start, outcomes,
                   detail(analytics), tally)


def _waiting(d: Decision, spec: LlmJurySpec) -> str:
    """Why a jury with deferred jurors waits for them (docs/jury.md, "Partial juries")."""
    if d.short and spec.min_jurors is not None:
        return (f"{d.decisive} decisive juror(s) of the {spec.min_jurors} needed; the "
                f"{d.missing} deferred could make up the number")
    return (f"{d.missing} juror(s) deferred and their votes could change the verdict "
            f"({'passes' if d.if_all_pass else 'fails'} if they pass, "
            f"{'passes' if d.if_all_fail else 'fails'} if they fail)")
