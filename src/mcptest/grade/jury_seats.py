"""Seating an `llm-jury`: asking each juror (its repetitions), replacing a mechanical failure
from the spares, and with `early_stop` asking in waves until the quorum is settled
(docs/jury.md, "Early stop"). `llm_matchers` decides the assertion from the seats.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.grade.decision import next_wave, settled
from mcptest.grade.jury_ballots import SeatLike, ballots, rule_of, verdict_mode
from mcptest.grade.sampling import repeated_sampling
from mcptest.llm.contracts import JudgeOutcome, JudgeRequest
from mcptest.report.vote_models import LostSeat, lost_words

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedTest
    from mcptest.suite.models import JudgeDefaults, Juror, LlmJurySpec


@dataclass(frozen=True)
class LlmContext:
    """Who wrote the candidate and the suite's judge settings."""

    generator_model: str | None = None
    """The model that produced the candidate (agent tests); None for tool tests."""
    defaults: JudgeDefaults | None = None
    """The suite's `judge:` block."""
    reference: Any = None
    """The test's `reference:`, shown to every judge (docs/cascade.md)."""

    @classmethod
    def of(cls, test: PlannedTest) -> LlmContext:
        return cls(generator_model=test.model if test.kind == "agent" else None,
                   defaults=test.suite.suite.judge,
                   reference=getattr(test.spec, "reference", None))


@dataclass
class Seat:
    """One place on the jury: the juror that sat there and its repetitions."""

    juror: Juror
    outcomes: list[JudgeOutcome]
    replacement_for: str | None = None
    history: list[tuple[JudgeOutcome, str | None]] = field(default_factory=list)

    @property
    def scores(self) -> list[float]:
        return [o.score for o in self.outcomes if o.status == "verdict" and o.score is not None]

    @property
    def score(self) -> float | None:
        """The juror's own median over its repetitions (None: no verdict)."""
        s = self.scores
        return statistics.median(s) if s else None

    @property
    def deferred(self) -> bool:
        """Unreachable: no verdict, and at least one of its calls could not be routed."""
        return not self.answered and any(o.status == "deferred" for o in self.outcomes)

    @property
    def answered(self) -> bool:
        """Some repetition gave a verdict (a labeled one has no score)."""
        return any(o.status == "verdict" for o in self.outcomes)

    @property
    def failed_mechanically(self) -> bool:
        return not self.answered and all(o.status == "judge_error" for o in self.outcomes)


async def _ask(juror: Juror, spec: LlmJurySpec, candidate: Any, ctx: LlmContext,
               engine: JudgeEngine) -> list[JudgeOutcome]:
    out: list[JudgeOutcome | None] = [None] * spec.repetitions
    sampled = spec.repetitions > 1 or spec.temperature is not None  # a given one is sent
    defaults = repeated_sampling(spec.temperature, ctx.defaults or engine.options.defaults) \
        if sampled else ctx.defaults

    async def one(k: int) -> None:
        out[k] = await engine.judge(JudgeRequest(
            rubric=spec.rubric, candidate=candidate, model=juror.model, base_url=juror.base_url,
            repetition=k, defaults=defaults, mode=verdict_mode(spec),
            reference=ctx.reference))

    async with anyio.create_task_group() as tg:
        for k in range(spec.repetitions):
            tg.start_soon(one, k)
    return [o for o in out if o is not None]


async def _seat_all(jurors: list[Juror], spec: LlmJurySpec, candidate: Any, ctx: LlmContext,
                    engine: JudgeEngine) -> list[list[JudgeOutcome]]:
    results: list[list[JudgeOutcome]] = [[] for _ in jurors]

    async def run(i: int, j: Juror) -> None:
        results[i] = await _ask(j, spec, candidate, ctx, engine)

    async with anyio.create_task_group() as tg:
        for i, j in enumerate(jurors):
            tg.start_soon(run, i, j)
    return results


async def seat_jury(spec: LlmJurySpec, candidate: Any, ctx: LlmContext,
                    engine: JudgeEngine) -> tuple[list[Seat], int]:
    """Seat the jurors, a mechanical failure replaced from the spares in order; returns the
    seats asked (in the order written) and how many jurors were not. All at once, or with
    `early_stop` in waves of the fewest jurors that settle the quorum whichever way they
    answer, stopping once it is settled (docs/jury.md, "Early stop")."""
    seats: list[tuple[int, Seat]] = []
    spare = list(spec.replacements)
    pending = list(enumerate(spec.jurors))
    # a lost seat fails the jury under `--require-judge` and `strict_panel`, and any juror not
    # asked could be lost: there only asking everyone gives the full jury's verdict
    early = spec.early_stop and not (engine.options.require_judge or spec.strict_panel)
    rule = rule_of(spec, engine.options.require_judge)

    def reachable(j: Juror) -> bool:
        return engine.reachable(j.model, j.base_url, ctx.defaults)

    if early:
        # jurors without a key cost nothing to ask: asked first (and deferred), outside the
        # waves, so they neither hold a wave's seat nor escape `--require-judge`
        reach = [reachable(j) for _, j in pending]
        free = [p for p, ok in zip(pending, reach, strict=True) if not ok]
        answers = await _seat_all([j for _, j in free], spec, candidate, ctx, engine)
        seats += [(i, Seat(j, o)) for (i, j), o in zip(free, answers, strict=True)]
        pending = [p for p, ok in zip(pending, reach, strict=True) if ok]
    while pending:
        k = len(pending)
        if early:
            asked = [seat for _, seat in seats]
            if any(o.status == "budget_skipped" for seat in asked for o in seat.outcomes):
                break  # skipped whatever the others say
            present = ballots(asked, spec)
            # a juror not asked may sit as a spare, with the spare's weight: bound it by the
            # heaviest (a heavier pass only raises the fraction, a heavier fail only lowers it)
            top = max((j.weight for j in spare), default=0.0)
            weights = [max(j.weight, top) for _, j in pending] + [
                seat.juror.weight for seat in asked if seat.deferred]
            if settled(present, weights, rule):
                break
            k = min(len(pending), next_wave(present, weights, rule))
        wave, pending = pending[:k], pending[k:]
        answers = await _seat_all([j for _, j in wave], spec, candidate, ctx, engine)
        new = [(i, Seat(j, o)) for (i, j), o in zip(wave, answers, strict=True)]
        failed = [seat for _, seat in new if seat.failed_mechanically]
        if failed and spare:
            stand_ins, spare = spare[:len(failed)], spare[len(failed):]
            subs = await _seat_all(stand_ins, spec, candidate, ctx, engine)
            for seat, sub, outs in zip(failed, stand_ins, subs, strict=False):
                seat.history = [(o, None) for o in seat.outcomes]
                seat.replacement_for, seat.juror, seat.outcomes = seat.juror.model, sub, outs
        seats += new
    return [seat for _, seat in sorted(seats, key=lambda x: x[0])], len(pending)


def lost_seats(seats: Sequence[SeatLike]) -> tuple[list[LostSeat], str]:
    """The seats lost to an error (a spare that failed too included) and the words that name
    them: `2 of 3 jurors answered; gemini-2.5-pro: server error (503 …) after 4 tries`."""
    lost = [LostSeat(model=s.juror.model if s.replacement_for is None
                     else f"{s.juror.model} (for {s.replacement_for})",
                     reason=next((o.message or "judge error" for o in reversed(s.outcomes)
                                  if o.status == "judge_error"), "judge error"))
            for s in seats
            if s.outcomes and all(o.status == "judge_error" for o in s.outcomes)]
    if not lost:
        return lost, ""
    answered = sum(1 for s in seats if any(o.status in ("verdict", "abstained")
                                           for o in s.outcomes))
    return lost, lost_words(answered, len(seats), lost)


def seat_refusal(lost_text: str, strict: bool, require_judge: bool) -> str | None:
    """Why a jury that lost a seat fails (`--require-judge`, `strict_panel`), else None."""
    if not lost_text:
        return None
    if require_judge:
        return f"judge required but unavailable: {lost_text}"
    if strict:
        return f"inconclusive: strict_panel needs every seat: {lost_text}"
    return None
