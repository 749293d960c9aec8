"""Trust or escalate: an `llm-judge` with `escalate:` grades through its tiers, cheapest first
(docs/cascade.md, "Trust or escalate"; Jung et al., ICLR 2025).

A tier's verdict stands when its confidence (`grade/confidence.py`) reaches the threshold its
calibration record holds for it; otherwise the next tier runs, and the last always decides. A
tier that gives no verdict (it abstained, errored or could not be reached) escalates too; a tier
with no threshold (the record found none, or there is no calibrated record) is never trusted, so
it is not run at all. Before the first tier runs, the worst case of every tier that may run is
held under `--max-cost`, so a cascade that starts can finish; what it did not need is released.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from mcptest.errors import BudgetRefused
from mcptest.grade.confidence import margin, stands
from mcptest.grade.jury_seats import LlmContext
from mcptest.grade.llm_matchers import grade_tier, judge_assertion
from mcptest.grade.rows import assertion_result
from mcptest.llm.contracts import JudgeRequest
from mcptest.report.judge_models import Escalation, TierStep
from mcptest.report.models import AssertionResult, JudgeDetail
from mcptest.suite.models import LlmJudgeMatcher, LlmJudgeSpec, LlmJurySpec

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from mcptest.grade.judged_call import JudgedCall
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion

TierSpec = LlmJudgeSpec | LlmJurySpec


class TierWatch(Protocol):
    """The run's shift check, watching a calibrated cascade as its tiers answer
    (`judging/shift_recheck.py`)."""

    def admit(self) -> AbstractAsyncContextManager[None]:
        """Held while one item is graded through the cascade: entered first, in the order the
        items reach it, it waits while a look must first be made on the items before."""
        ...

    def turn(self) -> AbstractAsyncContextManager[str | None]:
        """Entered before a tier other than the last runs (and held while it runs): why it
        must not run (the run's items were found unlike the labels), else None."""
        ...

    def saw(self, tier: int, confidence: float, settled: bool) -> None:
        """Tier `tier` (0-based) answered with this confidence, and settled the item or not."""
        ...


@dataclass(frozen=True)
class Thresholds:
    """What a cascade runs with, read from its calibration record (`calibrate/gate.py`)."""

    values: tuple[float | None, ...] = ()
    """Per tier before the last: the confidence its verdict needs; None: never trusted."""
    calibrated: bool = False
    why: str = "no calibration record"
    """Why there are no thresholds, when not calibrated."""
    notes: tuple[str | None, ...] = ()
    """Per tier: why the record has no threshold for it."""
    target: float | None = None
    guaranteed: float | None = None
    last_cost: float | None = None
    """The record's mean cost of one verdict of the last tier."""
    watch: TierWatch | None = None
    """The run's shift check, told each tier's answer; None: not watched."""

    def of(self, k: int) -> float | None:
        return self.values[k] if self.calibrated and k < len(self.values) else None


def tiers_of(spec: LlmJudgeSpec) -> list[TierSpec]:
    """The cascade's tiers, cheapest first: the judge itself, then its `escalate:` list."""
    first = spec.model_copy(update={"escalate": None, "calibration": None})
    return [first, *(t.llm_judge if isinstance(t, LlmJudgeMatcher) else t.llm_jury
                     for t in spec.escalate or [])]


def tier_models(tier: TierSpec, default: str | None = None) -> list[str]:
    if isinstance(tier, LlmJudgeSpec):
        return [tier.model or default or "(default)"]
    return [j.model for j in tier.jurors]


def tier_verdict(result: AssertionResult) -> tuple[bool | None, float | None, float | None]:
    """(passed, score, confidence) of one tier's result; passed is None when the tier gave no
    verdict (abstained, errored, deferred, inconclusive). A jury's score is the weighted share
    of its decisive jurors that passed, its line the quorum."""
    j = result.judge
    if result.status not in ("passed", "failed") or j is None:
        return None, None, None
    if j.kind == "llm-jury":
        a = j.jury
        if a is None or a.verdict not in ("passed", "failed") or a.passed_fraction is None:
            return None, None, None
        return a.verdict == "passed", a.passed_fraction, margin(a.passed_fraction, a.quorum)
    if j.score is None or j.threshold is None or any(v.abstained for v in j.votes):
        return None, None, None
    return result.status == "passed", j.score, margin(j.score, j.threshold)


def requests(tier: TierSpec, candidate: Any, ctx: LlmContext) -> list[JudgeRequest]:
    """The requests one tier sends (jury replacements, sent only on a failure, not counted)."""
    seats = ([(tier.model, tier.base_url)] if isinstance(tier, LlmJudgeSpec)
             else [(j.model, j.base_url) for j in tier.jurors] * tier.repetitions)
    return [JudgeRequest(rubric=tier.rubric, candidate=candidate, model=model, base_url=url,
                         defaults=ctx.defaults, reference=ctx.reference) for model, url in seats]


def _step(k: int, tier: TierSpec, ctx: LlmContext, **kw: Any) -> TierStep:
    kind = "llm-judge" if isinstance(tier, LlmJudgeSpec) else "llm-jury"
    default = ctx.defaults.model if ctx.defaults else None
    return TierStep(tier=k + 1, kind=kind, models=tier_models(tier, default), **kw)


def _unrun(th: Thresholds, k: int) -> str:
    if not th.calibrated:
        return f"not run: uncalibrated ({th.why}), so only the last tier decides"
    note = th.notes[k] if k < len(th.notes) else None
    return "not run: the record has no threshold for it" + (f" ({note})" if note else "")


async def grade_llm_judge(call: JudgedCall) -> AssertionResult:
    """Grade one `llm-judge` assertion: through its tiers when it has `escalate:` (a cascade),
    else alone (`llm_matchers.judge_assertion`); never raises for judge trouble."""
    m = call.planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    ctx = LlmContext.of(call.test)
    if not m.llm_judge.escalate:
        return await judge_assertion(call.planned, call.candidate, ctx, call.engine)
    th = call.thresholds() if call.thresholds is not None else Thresholds()
    return await grade_cascade(call.planned, m.llm_judge, call.candidate, ctx, call.engine, th)


async def grade_cascade(planned: PlannedAssertion, spec: LlmJudgeSpec, candidate: Any,
                        ctx: LlmContext, engine: JudgeEngine, th: Thresholds
                        ) -> AssertionResult:
    """Grade one `llm-judge` with `escalate:`; never raises for judge trouble."""
    if th.watch is None:
        return await _cascade(planned, spec, candidate, ctx, engine, th)
    async with th.watch.admit():
        return await _cascade(planned, spec, candidate, ctx, engine, th)


async def _cascade(planned: PlannedAssertion, spec: LlmJudgeSpec, candidate: Any,
                   ctx: LlmContext, engine: JudgeEngine, th: Thresholds) -> AssertionResult:
    start = time.perf_counter()
    tiers = tiers_of(spec)
    last = len(tiers) - 1
    running = [k for k in range(len(tiers)) if k == last or th.of(k) is not None]
    worst = sum(engine.worst_case(r) for k in running
                for r in requests(tiers[k], candidate, ctx))
    steps: list[TierStep] = []
    results: list[AssertionResult] = []
    try:
        async with engine.client.hold(worst):
            for k, tier in enumerate(tiers):
                if k not in running:
                    steps.append(_step(k, tier, ctx, ran=False, reason=_unrun(th, k)))
                    continue
                r, halted = await _tier(planned, tier, candidate, ctx, engine,
                                        None if k == last else th.watch)
                if r is None:  # the run's shift check fired: the last tier decides
                    steps.append(_step(k, tier, ctx, ran=False, reason=f"{HALTED}{halted}"))
                    continue
                results.append(r)
                passed, score, confidence = tier_verdict(r)
                threshold = th.of(k)
                said: dict[str, Any] = {
                    "verdict": None if passed is None else "passed" if passed else "failed",
                    "score": score, "confidence": confidence, "threshold": threshold,
                    "cost_usd": r.cost_usd, "cached": r.cached, "ran": True}
                if th.watch is not None and passed is not None and confidence is not None:
                    th.watch.saw(k, confidence, k == last or stands(confidence, threshold))
                if r.status == "skipped" or k == last or stands(confidence, threshold):
                    why = (r.message or "skipped" if r.status == "skipped" else
                           "the last tier decides" if k == last else
                           f"confidence {confidence:.2f} ≥ {threshold:.2f}: its verdict stands")
                    steps.append(_step(k, tier, ctx, decided=True, reason=why, **said))
                    break
                why = (f"confidence {confidence:.2f} < {threshold:.2f}: escalated"
                       if confidence is not None and threshold is not None
                       else f"no verdict ({r.message}): escalated")
                steps.append(_step(k, tier, ctx, reason=why, **said,
                                   votes=r.judge.votes if r.judge else []))
    except BudgetRefused as e:
        return assertion_result(
            planned, "skipped", start=start,
            message=f"budget: the cascade's worst case, every tier that may run "
                    f"(${worst:.6f}), does not fit: {e}")
    decider = steps[-1]
    steps += [_step(k, tiers[k], ctx, ran=False, reason=f"not needed: tier {decider.tier} decided")
              for k in range(len(steps), len(tiers))]
    return _row(planned, start, steps, decider, results, th)


HALTED = "not run: the shift check fired during the run: "
"""How a tier skipped because the run's shift check fired says so (then the check's reason)."""


async def _tier(planned: PlannedAssertion, tier: TierSpec, candidate: Any, ctx: LlmContext,
                engine: JudgeEngine, watch: TierWatch | None
                ) -> tuple[AssertionResult | None, str | None]:
    """One tier's result; under a watch, its turn first, and (None, why) when the run's items
    were found unlike the labels by then, so that the tier is not asked at all."""
    if watch is None:
        return await grade_tier(planned, tier, candidate, ctx, engine), None
    async with watch.turn() as halted:
        if halted is not None:
            return None, halted
        return await grade_tier(planned, tier, candidate, ctx, engine), None


def _row(planned: PlannedAssertion, start: float, steps: list[TierStep], decider: TierStep,
         results: list[AssertionResult], th: Thresholds) -> AssertionResult:
    final, count = results[-1], len(steps)
    last_cost = final.cost_usd if decider.tier == count else th.last_cost
    escalation = Escalation(
        decided_by=decider.tier if decider.decided and final.status != "skipped" else None,
        tiers=steps, calibrated=th.calibrated, target_agreement=th.target,
        guaranteed_agreement=th.guaranteed if th.calibrated else None,
        last_tier_cost_usd=last_cost)
    judge = (final.judge or JudgeDetail(kind=decider.kind)).model_copy(
        update={"escalation": escalation})
    models = ", ".join(decider.models)
    where = f"tier {decider.tier} of {count} ({decider.kind} {models}): {decider.reason}"
    message = f"{where}; {final.message}" if final.message else where
    return assertion_result(planned, final.status, message=message, start=start, judge=judge,
                            cost_usd=sum(r.cost_usd for r in results),
                            cached=all(r.cached for r in results))
