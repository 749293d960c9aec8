"""From samples to one eval verdict: a single judge, a jury of repeated samples, or a panel.

Jury (`size`, `consensus`): one model grades `size` times; the eval passes when the fraction of
decisive samples that passed, rounded to two decimals, is ≥ consensus; the score is the mean.
Panel: one sample per model; `mean`/`median` compare that statistic of the scores with the
threshold (a gate failure — guard, required, evidence, strict — in any member still fails),
`majority` counts member passes with `tie_break` for an even split. The score reported is the
statistic the verdict was decided on (mean or median; the mean for `majority`). Juries and
panels carry the jury analytics of docs/§5.3 over the samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.evals.sample import Asker, Sample, grade_sample
from mcptest.grade.aggregate import calls_per_grading, vote
from mcptest.grade.sampling import repeated_sampling
from mcptest.suite.models import EvalJudge, JudgeDefaults

if TYPE_CHECKING:
    from mcptest.evals.rubric import ResolvedRubric
    from mcptest.llm.engine import JudgeEngine
    from mcptest.report.models import CriterionResult, JudgeDetail, Status


@dataclass(frozen=True)
class SampleSeat:
    """One judge asked once: its model, its endpoint and its repetition."""

    model: str | None
    base_url: str | None
    repetition: int


@dataclass(frozen=True)
class EvalOutcome:
    """An eval's verdict with what the report shows of its judging and what it cost."""

    status: Status
    message: str
    detail: JudgeDetail
    cost_usd: float
    cache_hits: int
    all_cached: bool


def seats(judge: EvalJudge | None, matrix_model: str | None) -> tuple[str, list[SampleSeat]]:
    """The mode (`single`, `jury`, `panel`) and who grades: a matrix model replaces the judge
    model (and a panel, which a models axis would otherwise contradict)."""
    j = judge or EvalJudge()
    if j.panel is not None and matrix_model is None:
        return "panel", [SampleSeat(m, j.base_url, 0) for m in j.panel]
    model = matrix_model or j.model
    if j.jury is not None:
        return "jury", [SampleSeat(model, j.base_url, k) for k in range(j.jury.size)]
    return "single", [SampleSeat(model, j.base_url, 0)]


def jury_sampling(judge: EvalJudge | None, defaults: JudgeDefaults | None) -> JudgeDefaults:
    """The judge settings for the gradings of an eval jury (docs/evals.md, "a jury")."""
    jury = judge.jury if judge else None
    return repeated_sampling(jury.temperature if jury else None, defaults)


def _merged_criteria(samples: list[Sample]) -> list[CriterionResult]:
    """The first decisive sample's criteria with scores averaged over all decisive samples."""
    from statistics import fmean  # after the answers: not on the first request's path

    if len(samples) == 1:
        return samples[0].criteria
    first = samples[0].criteria
    out = []
    for k, c in enumerate(first):
        scores = [x for s in samples if (x := s.criteria[k].score) is not None]
        out.append(c.model_copy(update={"score": fmean(scores) if scores else None}))
    return out


async def judge_eval(rubric: ResolvedRubric, candidate: Any, text: str, *, prompt: str | None,
                     judge: EvalJudge | None, matrix_model: str | None, engine: JudgeEngine,
                     defaults: JudgeDefaults | None, generator_model: str | None,
                     reference: Any = None) -> EvalOutcome:
    from mcptest.evals.label_verdict import label_mode
    mode, who = seats(judge, matrix_model)
    if mode == "jury" and len(who) > 1:
        defaults = jury_sampling(judge, defaults or engine.options.defaults)
    labeled = label_mode(judge)

    async def wave(batch: list[SampleSeat]) -> list[Sample]:
        out: list[Sample | None] = [None] * len(batch)

        async def one(i: int, seat: SampleSeat) -> None:
            ask = Asker(engine, seat.model, seat.base_url, seat.repetition, defaults, labeled,
                        reference)
            out[i] = await grade_sample(rubric, candidate, text, prompt, ask)

        if len(batch) == 1:  # a single judge: no task group to make for one task
            await one(0, batch[0])
            return [s for s in out if s is not None]
        async with anyio.create_task_group() as tg:
            for i, seat in enumerate(batch):
                tg.start_soon(one, i, seat)
        return [s for s in out if s is not None]

    asked: list[tuple[int, Sample]] = []
    pending = list(enumerate(who))
    quorum = _quorum(mode, judge)
    early = judge is not None and judge.early_stop
    if early:  # members without a key cost nothing: asked first (and deferred), outside waves
        reach = [engine.reachable(t.model, t.base_url, defaults) for _, t in pending]
        free = [p for p, ok in zip(pending, reach, strict=True) if not ok]
        asked += zip([i for i, _ in free], await wave([t for _, t in free]), strict=True)
        pending = [p for p, ok in zip(pending, reach, strict=True) if ok]
    while pending:
        k = len(pending)
        if early:
            from mcptest.evals.settle import next_sample_wave

            k = next_sample_wave(mode, [s for _, s in asked], len(pending), rubric, judge, quorum)
            if k == 0:
                break
        batch, pending = pending[:k], pending[k:]
        asked += zip([i for i, _ in batch], await wave([t for _, t in batch]), strict=True)
    done = [s for _, s in sorted(asked, key=lambda x: x[0])]  # in the order written
    outcomes = [o for s in done for o in s.outcomes]
    if labeled is not None and judge is not None:
        return _labeled(rubric, done, judge, engine, generator_model)
    votes = [vote(o, s.vote_passed[k] if k < len(s.vote_passed) else None)
             for s in done for k, o in enumerate(s.outcomes)]
    status, message, score, analytics = _decide(mode, done, rubric, judge, engine,
                                                generator_model)
    if pending and status not in ("skipped", "deferred"):  # skipped: the budget stopped it
        message, analytics = _early_stopped(mode, done, len(pending), message, analytics)
    decisive = [s for s in done if s.state == "scored"]
    base = decisive[0] if decisive else done[0]
    scale = rubric.body.scale if rubric.body is not None else None
    from mcptest.evals.gates import display
    from mcptest.report.models import JudgeDetail

    detail = JudgeDetail(
        kind="eval", rubric=rubric.describe(), score=score, display_score=display(score, scale),
        threshold=rubric.threshold, votes=votes, jury=analytics,
        criteria=_merged_criteria(decisive) if decisive else base.criteria, path=base.path,
        vacuous=bool(decisive) and all(s.vacuous for s in decisive) and status == "passed",
        **_mode_fields(mode, judge, score, status))
    return EvalOutcome(status=status, message=message, detail=detail,
                       cost_usd=sum(o.cost_usd for o in outcomes),
                       cache_hits=sum(1 for o in outcomes if o.cached),
                       all_cached=bool(outcomes) and all(o.cached for o in outcomes))


def _mode_fields(mode: str, judge: EvalJudge | None, score: float | None,
                 status: Status) -> dict[str, Any]:
    """A `verdict_kind` panel says so, with its verdict, like an `llm-jury` (docs/evals.md): a
    boolean categorical one its pass/fail majority, a numeric one its statistic; a plain
    mean/median panel names its statistic."""
    decided = status in ("passed", "failed")
    if mode == "panel" and judge is not None and judge.verdict_kind == "categorical":
        return {"verdict_kind": "boolean", "aggregate": "majority",
                "verdict": ("pass" if status == "passed" else "fail") if decided else None,
                "passed": (status == "passed") if decided else None}
    if mode != "panel" or judge is None or judge.aggregate not in ("mean", "median"):
        return {}
    if judge.verdict_kind != "numeric":
        return {"aggregate": judge.aggregate}
    decided = decided and score is not None
    return {"aggregate": judge.aggregate, "verdict_kind": "numeric",
            "verdict": f"{score:g}" if decided and score is not None else None,
            "passed": (status == "passed") if decided else None}


def _labeled(rubric: ResolvedRubric, done: list[Sample], judge: EvalJudge,
             engine: JudgeEngine, generator: str | None) -> EvalOutcome:
    """A labeled eval: plurality of the samples' labels (evals/label_verdict.py)."""
    from mcptest.evals.label_verdict import decide_labels
    from mcptest.report.models import JudgeDetail
    d = decide_labels(done, judge, engine.options.require_judge, generator)
    outcomes = [o for s in done for o in s.outcomes]
    passing = judge.passing_labels
    passes = [None if o.label is None or passing is None else o.label in passing
              for o in outcomes]
    votes = [vote(o, ok).model_copy(update={"label": o.label, "passed": ok})
             for o, ok in zip(outcomes, passes, strict=True)]
    detail = JudgeDetail(kind="eval", rubric=rubric.describe(), threshold=None, votes=votes,
                         jury=d.analytics, verdict_kind="labeled", verdict=d.label,
                         passed=d.passed, aggregate="plurality", tally=d.tally)
    return EvalOutcome(status=d.status, message=d.message, detail=detail,
                       cost_usd=sum(o.cost_usd for o in outcomes),
                       cache_hits=sum(1 for o in outcomes if o.cached),
                       all_cached=bool(outcomes) and all(o.cached for o in outcomes))


def _decide(mode: str, done: list[Sample], rubric: ResolvedRubric, judge: EvalJudge | None,
            engine: JudgeEngine, generator: str | None) -> tuple[Status, str, float | None, Any]:
    from statistics import fmean  # after the answers: not on the first request's path

    from mcptest.evals.settle import eval_rule, panel_words, sample_ballots
    from mcptest.grade.decision import decide, unsettled
    from mcptest.grade.jury import decision_analytics
    from mcptest.report.vote_models import LostSeat, lost_words
    require = engine.options.require_judge
    if all(s.state == "deferred" for s in done):
        if require:
            return "failed", f"judge required but unavailable: {done[0].why}", None, None
        return "deferred", f"deferred: {done[0].why}", None, None
    if mode == "single":
        return _single(done[0])
    rule = eval_rule(mode, rubric, judge, _quorum(mode, judge), require)
    d = decide(sample_ballots(done, rule), rule)
    missing = [s for s in done if s.state == "deferred"]
    budget = next((s for s in done if s.state == "budget"), None)
    said = unsettled(d, seats=len(done), who="judge(s)",
                     deferred_why=missing[0].why if missing else None,
                     budget_why=None if budget is None else budget.why)
    if said is not None:
        return said[0], said[1], None, None
    decisive = [s for s in done if s.state == "scored"]
    if d.outcome in ("error", "inconclusive") and not decisive:
        return ("error" if d.outcome == "error" else "failed",
                f"no decisive sample: {done[0].why}", None, None)
    scores = [s.score for s in decisive if s.score is not None]
    mean = fmean(scores) if scores else None
    ok = d.outcome == "passed"
    if mode == "jury":
        why = (f"{d.passed_n}/{d.decisive} samples passed (fraction {d.fraction:.2f}, "
               f"consensus {rule.quorum:.2f}); mean score {mean:.2f}" if mean is not None else
               f"{d.passed_n}/{d.decisive} samples passed")
    else:
        why = panel_words(d, decisive, rubric, judge)
        if rule.how != "plurality":
            mean = d.answer if isinstance(d.answer, float) else mean  # what was decided on
    if all(s.vacuous for s in decisive):  # nothing was rated: no agreement to speak of
        return ("passed" if ok else "failed"), why, mean, None
    analytics = decision_analytics(d, juror_models=[s.model or "(default)" for s in done],
                                   generator_model=generator, quorum=rule.quorum)
    if mode == "panel":
        analytics = analytics.model_copy(update={"panel": True})
    if any(s.state != "scored" for s in done):
        why += f"; {sum(1 for s in done if s.state != 'scored')} sample(s) without a verdict"
    lost = [LostSeat(model=s.model or "(default)", reason=s.why) for s in done
            if s.state == "error"]
    if lost:  # never silent (docs/jury.md, "Lost seats")
        text = lost_words(sum(1 for s in done if s.state in ("scored", "inconclusive")),
                          len(done), lost)
        analytics = analytics.model_copy(update={"seats": len(done), "lost": lost})
        if require:
            return "failed", f"judge required but unavailable: {text}", mean, analytics
        if judge is not None and judge.strict_panel:
            return ("failed", f"inconclusive: strict_panel needs every seat: {text}", mean,
                    analytics)
        why += f"; {text}"
    if missing:
        why += (f" ({len(missing)} deferred; no verdict of theirs could change the outcome)")
        analytics = analytics.model_copy(update={"deferred": len(missing)})
    return ("passed" if ok else "failed"), why, mean, analytics


def _single(s: Sample) -> tuple[Status, str, float | None, Any]:
    """One grading decides: its own pass or fail."""
    from mcptest.grade.decision import budget_words
    if s.state == "budget":
        return "skipped", budget_words(s.why), None, None
    if s.state == "error":
        return "error", f"judge error: {s.why}", None, None
    if s.state == "inconclusive":
        return "failed", f"inconclusive: the judge abstained ({s.why})", None, None
    return ("passed" if s.passed else "failed"), s.why, s.score, None


def _quorum(mode: str, judge: EvalJudge | None) -> float:
    return judge.jury.consensus if (mode == "jury" and judge and judge.jury) else 0.5


def _early_stopped(mode: str, done: list[Sample], unasked: int, message: str,
                   analytics: Any) -> tuple[str, Any]:
    """Say what `early_stop` saved: gradings not asked, each worth the judge calls the cheapest
    reachable grading asked sent (`calls_per_grading`)."""
    per = calls_per_grading(s.outcomes for s in done if s.state != "deferred")
    who = "panel members" if mode == "panel" else "samples"
    message += f"; early stop: settled by {len(done)} of {len(done) + unasked} {who}" + (
        f", {unasked * per} call(s) saved" if unasked * per else "")
    if analytics is not None:
        analytics = analytics.model_copy(update={"jurors_asked": len(done),
                                                 "calls_saved": unasked * per})
    return message, analytics
