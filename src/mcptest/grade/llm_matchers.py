"""`llm-judge` and `llm-jury` grading over the judge engine (docs/judges.md, docs/jury.md).

Status mapping: a deferred judge is `deferred` (or `failed` under require_judge), a budget
refusal `skipped` ("budget: …"), a mechanical judge failure `error`, an inconclusive jury or a
lone judge that abstained `failed`. Nothing here imports litellm: the engine does, lazily.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.grade.aggregate import calls_per_grading, partial, vote, weighted_quorum
from mcptest.grade.jury import jury_analytics
from mcptest.grade.jury_seats import LlmContext, jury_heads, seat_jury
from mcptest.grade.rows import assertion_result
from mcptest.grade.verdict_jury import mode_jury
from mcptest.llm.contracts import JudgeOutcome, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.report.models import AssertionResult, JudgeDetail, JudgeVote, Status
from mcptest.suite.models import (
    LlmJudgeMatcher,
    LlmJuryMatcher,
    LlmJurySpec,
)

if TYPE_CHECKING:
    from mcptest.plan import PlannedAssertion, PlannedTest


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
        msg = o.message or "refused"
        return "skipped", msg if msg.startswith("budget") else f"budget: {msg}"
    return "error", f"judge error ({o.model}): {o.message}"


_UNSENT = ("deferred", "budget_skipped", "judge_error")


async def grade_llm_judge(test: PlannedTest, planned: PlannedAssertion, candidate: Any,
                          engine: JudgeEngine, response: Any = None) -> AssertionResult:
    """Grade one `llm-judge` assertion; never raises for judge trouble."""
    return await judge_assertion(planned, candidate, LlmContext.of(test), engine)


async def grade_llm_jury(test: PlannedTest, planned: PlannedAssertion, candidate: Any,
                         engine: JudgeEngine, response: Any = None) -> AssertionResult:
    """Grade one `llm-jury` assertion; never raises for judge trouble."""
    return await jury_assertion(planned, candidate, LlmContext.of(test), engine)


async def judge_assertion(planned: PlannedAssertion, candidate: Any, ctx: LlmContext,
                          engine: JudgeEngine) -> AssertionResult:
    m = planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    return await _judge(planned, m, candidate, ctx, engine)


async def jury_assertion(planned: PlannedAssertion, candidate: Any, ctx: LlmContext,
                         engine: JudgeEngine) -> AssertionResult:
    m = planned.assertion.matcher
    assert isinstance(m, LlmJuryMatcher)
    return await _jury(planned, m.llm_jury, candidate, ctx, engine)


async def _judge(planned: PlannedAssertion, m: LlmJudgeMatcher, candidate: Any,
                 ctx: LlmContext, engine: JudgeEngine) -> AssertionResult:
    start = time.perf_counter()
    spec = m.llm_judge
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

    heads = jury_heads(seats, spec.threshold)
    q = weighted_quorum(heads, spec.quorum)
    passed_n, decisive_n, fraction, met = q.passed, q.decisive, q.fraction, q.met
    scored = [s for s in seats if s.score is not None]
    weight = sum(s.juror.weight for s in scored)
    score = (sum(s.juror.weight * (s.score or 0.0) for s in scored) / weight) if scored else None

    def detail(analytics: Any = None) -> JudgeDetail:
        return JudgeDetail(kind="llm-jury", rubric=spec.rubric, score=score,
                           display_score=None if score is None else f"{score:.2f}",
                           threshold=spec.threshold, votes=votes, jury=analytics)

    budget = next((o for o in outcomes if o.status == "budget_skipped"), None)
    if budget is not None:
        return _result(planned, "skipped", start, outcomes, detail(),
                       _unsent(budget, engine)[1])
    missing = [s for s in seats if s.deferred]
    if missing:
        first_why = next(o for s in missing for o in s.outcomes if o.status == "deferred")
        if engine.options.require_judge:
            return _result(planned, "failed", start, outcomes, detail(),
                           f"judge required but unavailable: {len(missing)} of {len(seats)} "
                           f"juror(s) deferred: {first_why.message}")
        p = partial(heads, [s.juror.weight for s in missing], spec.quorum, spec.min_jurors)
        if not p.decided:
            return _result(planned, "deferred", start, outcomes, detail(),
                           f"deferred: {p.why}: {first_why.message}")

    errors = [o for o in outcomes if o.status == "judge_error"]
    if decisive_n == 0 and errors and not any(o.status == "abstained" for o in outcomes):
        return _result(planned, "error", start, outcomes, detail(),
                       f"every juror failed mechanically; last: "
                       f"{_unsent(errors[-1], engine)[1]}")
    inconclusive = decisive_n == 0 or (spec.min_jurors is not None
                                       and decisive_n < spec.min_jurors)
    verdict = "inconclusive" if inconclusive else ("passed" if met else "failed")
    ratings = [[o.score if o.status == "verdict" else None for o in s.outcomes] for s in seats]
    analytics = jury_analytics(ratings, juror_models=[s.juror.model for s in seats],
                               generator_model=ctx.generator_model, quorum=spec.quorum,
                               passed_jurors=passed_n, decisive=decisive_n, verdict=verdict)
    update: dict[str, Any] = {"deferred": len(missing)}
    if analytics.passed_fraction != fraction and fraction is not None:
        update["passed_fraction"] = fraction
    if spec.early_stop:
        update.update(jurors_asked=len(seats), calls_saved=saved)
    analytics = analytics.model_copy(update=update)
    tally = f"{passed_n}/{decisive_n} decisive jurors passed"
    if fraction is not None:
        tally += f" (fraction {fraction:.2f}, quorum {spec.quorum:.2f})"
    if errors:
        tally += f"; {len(errors)} judge error(s)"
    if unasked:
        tally += f"; early stop: settled by {len(seats)} of {len(spec.jurors)} jurors" + (
            f", {saved} call(s) saved" if saved else "")
    if missing and p.why:
        tally += f"; {p.why}"
    if inconclusive:
        need = spec.min_jurors or 1
        return _result(planned, "failed", start, outcomes, detail(analytics),
                       f"inconclusive: {decisive_n} decisive juror(s), need {need}; {tally}")
    return _result(planned, "passed" if met else "failed", start, outcomes,
                   detail(analytics), tally)
