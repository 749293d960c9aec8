"""During and after a run: does each calibrated cascade's guarantee apply to it (docs/cascade.md,
"When the guarantee does not apply")?

Each calibrated cascade is watched as its tiers answer: its record's tiers are compared with
what the run showed so far at a few looks, and once more at the end (`calibrate/shift_looks.py`,
`calibrate/shift.py`). Once a look finds them different, by default (`--on-shift escalate`) the
rest of that cascade's items skip the earlier tiers. The items take places in the order they
reach the cascade, and one at or past a look's checkpoint waits until the items before it are
graded and the look is made on their answers: the looks, and which items ask the earlier tiers,
do not depend on the order answers finish in (a replay from model cassettes asks what the
recording asked; docs/decisions.md). Within that, the earlier tiers run as many at once as the
run's judge concurrency. When the run is over, a cascade found different has, by `--on-shift`, every
verdict an earlier tier settled sent to the last tier (`escalate`: the last tier decides, as it
would alone) or every verdict made advisory (`advisory`); with `--require-calibration` they
fail. The rows change accordingly and the report's warnings say which cascade, why, when it was
found, and what was done.
"""

from __future__ import annotations

import dataclasses
from contextlib import AbstractContextManager, asynccontextmanager, nullcontext
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import anyio

from mcptest.suite.models import LlmJudgeMatcher

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from mcptest.calibrate.gate import CalibrationGating
    from mcptest.calibrate.shift import ShiftCheck
    from mcptest.calibrate.shift_looks import ShiftLooks
    from mcptest.grade.escalation import Thresholds
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.report.models import AssertionResult, CalibrationNote, TestResult

OnShift = Literal["escalate", "advisory"]


@dataclass
class _Item:
    test: PlannedTest
    planned: PlannedAssertion
    candidate: Any


@dataclass
class _Watch:
    """One calibrated cascade's looks, and the turns of its earlier tiers (a `TierWatch`)."""

    looks: ShiftLooks
    turns: anyio.CapacityLimiter
    halts: bool
    """Once a look fired, the earlier tiers are skipped (`--on-shift escalate`, calibration not
    required): otherwise the verdicts are kept, to be made advisory or failed at the end."""
    places: int = 0
    """Items given a place, in the order they reached the cascade."""
    done: list[int] = field(default_factory=list)
    """The places of the items graded to their end (or cancelled)."""
    below: int = 0
    """How many of those are before the next look's checkpoint."""
    looked: anyio.Event = field(default_factory=anyio.Event)
    """Set when the next interim look has been made (then replaced)."""

    @asynccontextmanager
    async def admit(self) -> AsyncIterator[None]:
        """Held while one item is graded through the cascade. An item at or past the next
        look's checkpoint (30, 60, 120, … items) waits until every item before it is graded
        and the look is made on their answers, so the looks see the same answers and the
        same items ask the earlier tiers however the answers finish (a replay from model
        cassettes asks what the recording asked)."""
        place = self.places  # taken before any await: the order items reach the cascade
        self.places += 1
        try:
            while self.looks.fired is None and place >= self.looks.next_look:
                await self.looked.wait()
            yield
        finally:
            self._finished(place)

    def _finished(self, place: int) -> None:
        self.done.append(place)
        self.below += place < self.looks.next_look
        while self.looks.fired is None and self.below == self.looks.next_look:
            self.looks.look()
            self.below = sum(p < self.looks.next_look for p in self.done)
            self.looked.set()
            self.looked = anyio.Event()

    def halted(self) -> str | None:
        fired = self.looks.fired
        if not self.halts or fired is None:
            return None
        return f"{fired.reason()}; found after {self.looks.fired_after} answers of tier 1"

    @asynccontextmanager
    async def turn(self) -> AsyncIterator[str | None]:
        if (why := self.halted()) is not None:
            yield why  # no need to wait for a turn that will not be taken
            return
        async with self.turns:
            yield self.halted()

    def saw(self, tier: int, confidence: float, settled: bool) -> None:
        self.looks.add(tier, confidence, settled)  # the looks are made by `_finished`


@dataclass
class ShiftRecheck:
    """The run's calibrated cascade verdicts and looks, by record file, until the run is over."""

    gating: CalibrationGating
    engine: JudgeEngine
    on_shift: OnShift = "escalate"
    items: dict[str, list[_Item]] = field(default_factory=dict)
    watches: dict[str, _Watch] = field(default_factory=dict)

    def watched(self, test: PlannedTest, planned: PlannedAssertion, th: Thresholds
                ) -> Thresholds:
        """A calibrated cascade's thresholds with the watch of its record (one per record
        file, made at its first verdict); unchanged when the record keeps no confidences."""
        from mcptest.calibrate.shift import TierSample
        from mcptest.calibrate.shift_looks import ShiftLooks
        note = self.gating.note(test, planned) if th.calibrated else None
        record = self.gating.record(test, planned) if note is not None else None
        cascade = record.cascade if record is not None else None
        if note is None or cascade is None or any(t.confidences is None for t in cascade.tiers):
            return th
        watch = self.watches.get(note.record)
        if watch is None:
            labels = [TierSample(t.confidences or [], t.settled) for t in cascade.tiers]
            watch = self.watches[note.record] = _Watch(
                ShiftLooks(labels), anyio.CapacityLimiter(self.engine.options.concurrency),
                halts=self.on_shift == "escalate" and not self.gating.require)
        return dataclasses.replace(th, watch=watch)

    def note(self, test: PlannedTest, planned: PlannedAssertion, candidate: Any,
             result: AssertionResult) -> None:
        """Keep a calibrated cascade verdict for the check at the end of the run."""
        c = result.calibration
        m = planned.assertion.matcher
        if (c is None or c.state != "calibrated" or not isinstance(m, LlmJudgeMatcher)
                or not m.llm_judge.escalate):
            return
        self.items.setdefault(c.record, []).append(_Item(test, planned, candidate))

    async def finish(self, results: dict[str, TestResult],
                     tape: Callable[[PlannedTest], AbstractContextManager[None]] | None = None
                     ) -> list[str]:
        """Check every record against the run; change the rows of a shifted one (each graded
        again under its row's model cassette, `tape`, so a replay answers it as recorded).
        Returns the run's warnings (one per record checked that did not apply, or could not be
        checked)."""
        out: list[str] = []
        for name, items in self.items.items():
            watch = self.watches.get(name)
            if watch is None:
                out.append(f"cascade {name}: the record keeps no confidences, so whether the "
                           "run's items look like the labelled ones is not checked; "
                           "re-run `mcptest calibrate` to keep them")
                continue
            check = watch.looks.finish()
            reason = check.reason()
            if reason is None:
                if check.untested:
                    out.append(f"cascade {name}: tier(s) {check.untested} reached too seldom "
                               "in this run to check that its items look like the labelled ones")
                continue
            looks = watch.looks
            when = (f"found at a look after {looks.fired_after} answers of tier 1" if looks.early
                    else f"found at the end of the run, after {looks.fired_after} answers of "
                         "tier 1")
            out.append(f"cascade {name}: {reason} ({when}); "
                       + self._what(looks.early and watch.halts))
            for item in items:
                with tape(item.test) if tape is not None else nullcontext():
                    await self._redo(item, results, reason, check)
        return out

    def _what(self, early: bool) -> str:
        if self.gating.require:
            return "its verdicts fail (--require-calibration)"
        if self.on_shift == "advisory":
            return "its verdicts are advisory (--on-shift advisory)"
        return (("the rest of its items went straight to the last tier, and " if early else "")
                + "every verdict an earlier tier settled was sent to the last tier, which decides")

    async def _redo(self, item: _Item, results: dict[str, TestResult], reason: str,
                    check: ShiftCheck) -> None:
        from mcptest.grade.escalation import HALTED, Thresholds, grade_cascade
        from mcptest.grade.grader import test_verdict
        from mcptest.grade.jury_seats import LlmContext
        row = results.get(item.test.id)
        if row is None:
            return
        pos = next((k for k, a in enumerate(row.assertions)
                    if a.index == item.planned.index), None)
        if pos is None:
            return
        old = row.assertions[pos]
        new = old
        escalation = old.judge.escalation if old.judge else None
        last = len(escalation.tiers) if escalation else 0
        if (not self.gating.require and self.on_shift == "escalate" and escalation is not None
                and escalation.decided_by is not None and escalation.decided_by < last):
            m = item.planned.assertion.matcher
            assert isinstance(m, LlmJudgeMatcher)
            redone = await grade_cascade(item.planned, m.llm_judge, item.candidate,
                                         LlmContext.of(item.test), self.engine,
                                         Thresholds(why=reason))
            new = redone.model_copy(update={
                "calibration": old.calibration, "cost_usd": old.cost_usd + redone.cost_usd,
                "message": f"escalated after the run: {reason}; {redone.message}"})
        elif escalation is not None and any((s.reason or "").startswith(HALTED)
                                            for s in escalation.tiers):
            new = old.model_copy(update={
                "message": f"escalated during the run: {reason}; {old.message}"})
        new = self._gate(new, reason)
        assertions = [*row.assertions[:pos], new, *row.assertions[pos + 1:]]
        verdict = test_verdict(item.test, assertions)
        results[item.test.id] = row.model_copy(update={
            "assertions": verdict.assertions, "status": verdict.status,
            "cost_usd": round(row.cost_usd + new.cost_usd - old.cost_usd, 8),
            "message": verdict.message or row.message})

    def _gate(self, result: AssertionResult, reason: str) -> AssertionResult:
        """The verdict with a `shifted` calibration note: failed when calibration is
        required, advisory by option, else (escalated) it stands with the note."""
        note = result.calibration
        if note is None or result.status not in ("passed", "failed"):
            return result
        shifted: CalibrationNote = note.model_copy(update={"state": "shifted",
                                                          "reason": reason})
        said = f"judge said {result.status}" + (f": {result.message}" if result.message else "")
        if self.gating.require:
            return result.model_copy(update={
                "status": "failed", "message": f"calibration required: {reason}; {said}",
                "calibration": shifted.model_copy(update={"verdict": result.status})})
        if self.on_shift == "advisory":
            return result.model_copy(update={
                "status": "passed" if result.status == "passed" else "deferred",
                "message": f"advisory ({reason}); {said}",
                "calibration": shifted.model_copy(update={"verdict": result.status,
                                                          "advisory": True})})
        return result.model_copy(update={"calibration": shifted})
