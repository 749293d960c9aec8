"""Run a suite's judge (or jury) on every labelled candidate and measure it against the humans.

The judge runs exactly as in a run: the same grader (`grade.llm_matchers`), the same engine
(one model client: budget, retries, cache), so what is measured is what gates.
"""

from __future__ import annotations

import json
import statistics
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import anyio

from mcptest.calibrate.correlation import effective_jurors, erring_together, error_correlations
from mcptest.calibrate.record import CalibrationRecord, Disagreement
from mcptest.calibrate.stats import alpha, alpha_interval, cohen_kappa, figures
from mcptest.calibrate.target import Target, eval_matrix_model, eval_rubric
from mcptest.evals.verdict import judge_eval
from mcptest.grade.decision import Ballot, decide
from mcptest.grade.jury_ballots import rule_of
from mcptest.grade.jury_seats import LlmContext
from mcptest.grade.llm_matchers import judge_assertion, jury_assertion
from mcptest.suite.models import EvalSpec, LlmJuryMatcher

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.calibrate.labels import Label
    from mcptest.llm.engine import JudgeEngine
    from mcptest.report.models import AssertionResult, JudgeDetail, Status

_CANDIDATE_CHARS = 200


@dataclass(frozen=True)
class Judged:
    """One label's outcome: the verdict that gates, and each juror's own."""

    verdict: bool | None
    score: float | None
    reason: str | None
    jurors: dict[str, float | None]


def _seat_scores(judge: JudgeDetail | None) -> dict[str, float | None]:
    seats: dict[str, list[float]] = {}
    for v in judge.votes if judge else []:
        scores = seats.setdefault(v.replacement_for or v.model, [])
        if v.score is not None:
            scores.append(v.score)
    return {m: statistics.median(s) if s else None for m, s in seats.items()}


def _judged(status: Status, judge: JudgeDetail | None, message: str | None) -> Judged:
    verdict = {"passed": True, "failed": False}.get(status)
    return Judged(verdict=verdict, score=judge.score if judge else None, reason=message,
                  jurors=_seat_scores(judge))


async def _grade(target: Target, candidate: object, engine: JudgeEngine) -> Judged:
    """One candidate through the grader a run would use for this judge."""
    test, planned = target.test, target.planned
    if planned is None:
        spec = test.spec
        assert isinstance(spec, EvalSpec)
        out = await judge_eval(eval_rubric(test), candidate, str(candidate), prompt=spec.prompt,
                               judge=spec.judge, matrix_model=eval_matrix_model(test),
                               engine=engine, defaults=test.suite.suite.judge,
                               generator_model=None, reference=spec.reference)
        return _judged(out.status, out.detail, out.message)
    grade = (jury_assertion if isinstance(planned.assertion.matcher, LlmJuryMatcher)
             else judge_assertion)
    result: AssertionResult = await grade(planned, candidate, LlmContext.of(test), engine)
    return _judged(result.status, result.judge, result.message)


async def judge_labels(target: Target, labels: Sequence[Label], engine: JudgeEngine
                       ) -> list[Judged]:
    """Every label judged concurrently (the engine's pool bounds the calls in flight)."""
    out: list[Judged | None] = [None] * len(labels)

    async def one(i: int) -> None:
        out[i] = await _grade(target, labels[i].candidate, engine)

    async with anyio.create_task_group() as tg:
        for i in range(len(labels)):
            tg.start_soon(one, i)
    return [j for j in out if j is not None]


def shown_candidate(candidate: object) -> str:
    text = candidate if isinstance(candidate, str) else json.dumps(candidate, ensure_ascii=False,
                                                                   default=str)
    return text if len(text) <= _CANDIDATE_CHARS else text[:_CANDIDATE_CHARS] + "…"


def _lowering(target: Target, human: list[bool], seats: dict[str, list[bool | None]],
              full: float | None) -> list[str]:
    """Jurors whose removal would raise the jury's kappa with the humans (leave-one-out)."""
    m = target.planned.assertion.matcher if target.planned else None
    if not isinstance(m, LlmJuryMatcher) or len(seats) < 2 or full is None:
        return []
    weights = {j.model: j.weight for j in m.llm_jury.jurors}
    rule = rule_of(m.llm_jury.model_copy(update={"verdict_kind": None}), False)
    out: list[str] = []
    for left_out in seats:
        verdicts: list[bool | None] = []
        for i in range(len(human)):
            d = decide([Ballot(weight=weights.get(k, 1.0), passed=v[i]) for k, v in seats.items()
                        if k != left_out and v[i] is not None], rule)
            verdicts.append(d.passed if d.outcome in ("passed", "failed") else None)
        pairs = [(h, v) for h, v in zip(human, verdicts, strict=True) if v is not None]
        kappa = cohen_kappa([h for h, _ in pairs], [v for _, v in pairs])
        if kappa is not None and kappa > full + 1e-12:
            out.append(left_out)
    return out


def label_verdicts(labels: Sequence[Label], verdicts: Sequence[bool | None]
                   ) -> dict[str, Literal["pass", "fail"]]:
    """Label id → the judge's verdict, for the labels it judged (`--check-drift` pairs them)."""
    return {label.id or str(i + 1): "pass" if v else "fail"
            for i, (label, v) in enumerate(zip(labels, verdicts, strict=True)) if v is not None}


def build_record(target: Target, labels: Sequence[Label], judged: Sequence[Judged],
                 labels_file: str) -> CalibrationRecord:
    threshold = target.identity.threshold
    human = [label.passed(threshold) for label in labels]
    human_scores = [label.score for label in labels]
    scored = all(s is not None for s in human_scores)
    floor = target.gate.min_agreement if target.gate is not None else None
    verdict = figures(human, [j.verdict for j in judged],
                      human_scores if scored else None,
                      [j.score for j in judged] if scored else None, floor)
    seats: dict[str, list[bool | None]] = {}
    seat_scores: dict[str, list[float | None]] = {}
    for i, j in enumerate(judged):
        for model, score in j.jurors.items():
            seats.setdefault(model, [None] * len(judged))[i] = (
                None if score is None else score >= threshold)
            seat_scores.setdefault(model, [None] * len(judged))[i] = score
    jurors = {m: figures(human, v, human_scores if scored else None,
                         seat_scores[m] if scored else None) for m, v in seats.items()}
    disagreements = [
        Disagreement(label=label.id or str(i + 1), candidate=shown_candidate(label.candidate),
                     human=str(label.human), judge="pass" if j.verdict else "fail",
                     score=j.score, reason=j.reason, by=label.by)
        for i, (label, j) in enumerate(zip(labels, judged, strict=True))
        if j.verdict is not None and j.verdict != human[i]]
    is_jury = target.identity.kind == "llm-jury" or len(set(target.identity.models)) > 1
    pairs = error_correlations(human, seats) if is_jury else []
    worth = effective_jurors(len(seats), pairs) if is_jury else None
    coders: list[list[float | None]] = [[float(h) for h in human],
              *[[None if v is None else float(v) for v in vs] for vs in seats.values()]]
    return CalibrationRecord(
        identity=target.identity, identity_hash=target.identity.hash, labels_file=labels_file,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"), labels=len(labels),
        unjudged=sum(1 for j in judged if j.verdict is None), verdict=verdict,
        verdicts=label_verdicts(labels, [j.verdict for j in judged]),
        jurors=jurors if is_jury else {},
        panel_alpha=alpha(*coders) if is_jury else None,
        panel_alpha_ci95=alpha_interval(*coders) if is_jury else None,
        error_correlation=pairs, effective_jurors=worth,
        warnings=erring_together(pairs, worth, len(seats)),
        lowers_agreement=_lowering(target, human, seats, verdict.kappa),
        disagreements=disagreements)
