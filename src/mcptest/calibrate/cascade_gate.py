"""The thresholds an escalation cascade runs with: its calibration record's, when the gate finds
the record calibrated; else none, so only the last tier decides and the verdict is advisory
(docs/cascade.md, "Without a record")."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.grade.escalation import Thresholds

if TYPE_CHECKING:
    from mcptest.calibrate.gate import CalibrationGating
    from mcptest.plan import PlannedAssertion, PlannedTest


def thresholds(gating: CalibrationGating, test: PlannedTest, planned: PlannedAssertion
               ) -> Thresholds:
    note = gating.note(test, planned)
    if note is None:
        return Thresholds(why="no `calibration:`")
    if note.state != "calibrated":
        return Thresholds(why=note.reason or note.state)
    record = gating.record(test, planned)
    cascade = record.cascade if record is not None else None
    if cascade is None:
        return Thresholds(why="the record holds no tier thresholds: run `mcptest calibrate "
                              "--target-agreement …`")
    return Thresholds(
        values=tuple(t.threshold for t in cascade.tiers[:-1]), calibrated=True,
        notes=tuple(t.note for t in cascade.tiers), target=cascade.target_agreement,
        guaranteed=cascade.guaranteed_agreement,
        last_cost=cascade.tiers[-1].cost_per_verdict_usd)
