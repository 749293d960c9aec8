"""After a run: does each calibrated cascade's guarantee apply to it (docs/cascade.md, "When the
guarantee does not apply")?

Every calibrated cascade verdict is noted as it is graded. When the run is over, each record's
tiers are compared with what the run showed (`calibrate/shift.py`). Where they differ, the run
says the guarantee does not apply and, by `--on-shift`, either sends every verdict an earlier
tier settled to the last tier (`escalate`, the default: the last tier decides, as it would
alone) or makes every verdict of that cascade advisory (`advisory`); with
`--require-calibration` they fail. The rows change accordingly and the report's warnings say
which cascade, why, and what was done.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from mcptest.calibrate.gate import CalibrationGating
from mcptest.calibrate.shift import ShiftCheck, TierSample, check_shift
from mcptest.grade.escalation import Thresholds, grade_cascade
from mcptest.grade.grader import test_verdict
from mcptest.grade.jury_seats import LlmContext
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import PlannedAssertion, PlannedTest
from mcptest.report.models import AssertionResult, CalibrationNote, TestResult
from mcptest.suite.models import LlmJudgeMatcher

OnShift = Literal["escalate", "advisory"]


@dataclass
class _Item:
    test: PlannedTest
    planned: PlannedAssertion
    candidate: Any


@dataclass
class ShiftRecheck:
    """The run's calibrated cascade verdicts, by record file, until the run is over."""

    gating: CalibrationGating
    engine: JudgeEngine
    on_shift: OnShift = "escalate"
    items: dict[str, list[_Item]] = field(default_factory=dict)

    def note(self, test: PlannedTest, planned: PlannedAssertion, candidate: Any,
             result: AssertionResult) -> None:
        """Keep a calibrated cascade verdict for the check at the end of the run."""
        c = result.calibration
        m = planned.assertion.matcher
        if (c is None or c.state != "calibrated" or not isinstance(m, LlmJudgeMatcher)
                or not m.llm_judge.escalate):
            return
        self.items.setdefault(c.record, []).append(_Item(test, planned, candidate))

    async def finish(self, results: dict[str, TestResult]) -> list[str]:
        """Check every record against the run; change the rows of a shifted one. Returns the
        run's warnings (one per record checked that did not apply, or could not be checked)."""
        out: list[str] = []
        for name, items in self.items.items():
            record = self.gating.record(items[0].test, items[0].planned)
            cascade = record.cascade if record is not None else None
            if cascade is None or any(t.confidences is None for t in cascade.tiers):
                out.append(f"cascade {name}: the record keeps no confidences, so whether the "
                           "run's items look like the labelled ones is not checked; "
                           "re-run `mcptest calibrate` to keep them")
                continue
            labels = [TierSample(t.confidences or [], t.settled) for t in cascade.tiers]
            check = check_shift(labels, _run_samples(items, results, len(cascade.tiers)))
            reason = check.reason()
            if reason is None:
                if check.untested:
                    out.append(f"cascade {name}: tier(s) {check.untested} reached too seldom "
                               "in this run to check that its items look like the labelled ones")
                continue
            out.append(f"cascade {name}: {reason}; " + self._what())
            for item in items:
                await self._redo(item, results, reason, check)
        return out

    def _what(self) -> str:
        if self.gating.require:
            return "its verdicts fail (--require-calibration)"
        if self.on_shift == "advisory":
            return "its verdicts are advisory (--on-shift advisory)"
        return "every verdict an earlier tier settled was sent to the last tier, which decides"

    async def _redo(self, item: _Item, results: dict[str, TestResult], reason: str,
                    check: ShiftCheck) -> None:
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


def _run_samples(items: list[_Item], results: dict[str, TestResult], tiers: int
                 ) -> list[TierSample | None]:
    """What each tier showed in the run: its confidence on every item that reached it with a
    verdict, and how many of those it settled."""
    confidences: list[list[float]] = [[] for _ in range(tiers)]
    settled = [0] * tiers
    for item in items:
        row = results.get(item.test.id)
        a = next((x for x in row.assertions if x.index == item.planned.index), None) if row \
            else None
        e = a.judge.escalation if a is not None and a.judge is not None else None
        if e is None:
            continue
        for step in e.tiers:
            k = step.tier - 1
            if not step.ran or step.verdict is None or step.confidence is None or k >= tiers:
                continue
            confidences[k].append(step.confidence)
            settled[k] += bool(step.decided)
    return [TierSample(c, s) for c, s in zip(confidences, settled, strict=True)]
