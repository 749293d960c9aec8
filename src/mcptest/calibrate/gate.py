"""The calibration gate: a judged verdict counts only when its judge is calibrated.

While a judge's record is missing, unreadable, stale (the rubric or judges changed since) or
below its floor, its verdicts are advisory: a pass stays a pass, a fail is reported as
`deferred` with the judge's score and never fails the run; with `--require-calibration` both
fail instead. A calibrated verdict keeps its status and carries the record's figures
(docs/calibration.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.calibrate.record import CalibrationRecord, JudgeIdentity
    from mcptest.plan import PlannedAssertion, PlannedTest
    from mcptest.readback.evidence import ChangedEvidence
    from mcptest.report.judge_models import JudgeDetail
    from mcptest.report.models import (
        AssertionResult,
        CalibrationNote,
        CalibrationState,
        Status,
        TestResult,
    )
    from mcptest.suite.models import CalibrationGate

_REASONS: dict[CalibrationState, str] = {
    "missing": "no calibration record", "unreadable": "the calibration record is unreadable",
    "stale": "the calibration record is stale (rubric, threshold, judges or prompt changed)",
    "too-few-labels": "too few labels", "below-floor": "agreement below the floor",
    "calibrated": "calibrated",
    "untrusted": "the calibration record changed in this pull request and is not trusted here",
    "shifted": "the run's items do not look like the labelled ones (docs/cascade.md)",
}


MAX_WARNINGS = 10
"""Warnings of one record a run shows."""
MAX_WARNING_CHARS = 300


class CalibrationGating:
    """Reads each record once per run (held here, not globally) and rewrites judged rows."""

    def __init__(self, *, require: bool, evidence: ChangedEvidence | None = None) -> None:
        self.require = require
        self.evidence = evidence
        """Which records this pull request changed, and whether they are trusted."""
        self._records: dict[Path, CalibrationRecord | str] = {}

    def _record(self, path: Path) -> CalibrationRecord | str:
        from mcptest.calibrate.record import RecordError, read_record
        if path not in self._records:
            try:
                self._records[path] = read_record(path)
            except FileNotFoundError:
                self._records[path] = "missing"
            except RecordError as e:
                self._records[path] = f"unreadable: {path.name}: {e}"
        return self._records[path]

    def warnings(self) -> list[str]:
        """What the records read so far warn about (jurors that err together), one line each, for
        the run's warnings: the PR comment shows them even when every verdict passed."""
        out: list[str] = []
        for path, found in self._records.items():
            if isinstance(found, str):
                continue
            # a committed file: its own words, few and short (100,000 made a 7.5 MB comment)
            said = record_warnings(found)
            out.extend(f"calibration record {path.name}: {w[:MAX_WARNING_CHARS]}"
                       for w in said[:MAX_WARNINGS])
            if len(said) > MAX_WARNINGS:
                out.append(f"calibration record {path.name}: "
                           f"{len(said) - MAX_WARNINGS} more warning(s) not shown")
        return out

    def note(self, test: PlannedTest, planned: PlannedAssertion | None
             ) -> CalibrationNote | None:
        """The calibration of a judged assertion, or of an eval row (`planned` None)."""
        from mcptest.calibrate.target import (
            eval_gate,
            eval_identity,
            gate_of,
            identity_for,
            record_path,
        )
        if planned is None:
            gate, identity = eval_gate(test), eval_identity(test)
        else:
            gate, identity = gate_of(test, planned), identity_for(test, planned)
        path = record_path(test, gate)
        if gate is None or path is None or identity is None:
            return None
        return self._state(gate, path, identity)

    def record(self, test: PlannedTest, planned: PlannedAssertion) -> CalibrationRecord | None:
        """The record a judged assertion's gate points at, when it can be read."""
        from mcptest.calibrate.record import CalibrationRecord
        from mcptest.calibrate.target import gate_of, record_path
        path = record_path(test, gate_of(test, planned))
        found = self._record(path) if path is not None else None
        return found if isinstance(found, CalibrationRecord) else None

    def _state(self, gate: CalibrationGate, path: Path, identity: JudgeIdentity
               ) -> CalibrationNote:
        found = self._record(path)
        if isinstance(found, str):
            state: CalibrationState = "missing" if found == "missing" else "unreadable"
            return _note(gate, state, None, found if state == "unreadable" else None)
        note = self._judged(gate, found, identity)
        if self.evidence is None or not self.evidence.changed(path):
            return note
        if self.evidence.distrust:
            note = _note(gate, "untrusted", found, (
                f"the calibration record {gate.file} changed in this pull request: "
                f"{self.evidence.why_untrusted}"))
        return note.model_copy(update={"record_changed": True})

    def _judged(self, gate: CalibrationGate, found: CalibrationRecord, identity: JudgeIdentity
                ) -> CalibrationNote:
        if found.identity_hash != identity.hash:
            return _note(gate, "stale", found, None)
        if found.drift is not None and found.drift.stale:
            return _note(gate, "stale", found, f"the judge drifted: {found.drift.reason}")
        v = found.verdict
        if v.labels < gate.min_labels:
            return _note(gate, "too-few-labels", found,
                         f"{v.labels} judged label(s), need {gate.min_labels}")
        if v.kappa is None or v.kappa < gate.min_agreement:
            kappa = "undefined" if v.kappa is None else f"{v.kappa:.3f}"
            return _note(gate, "below-floor", found,
                         f"kappa {kappa} < min_agreement {gate.min_agreement:g}")
        if gate.min_agreement_on == "lower_bound":
            low = v.kappa_ci95.low if v.kappa_ci95 is not None else None
            if low is None or low < gate.min_agreement:
                shown = "undefined" if low is None else f"{low:.3f}"
                return _note(gate, "below-floor", found,
                             f"kappa {v.kappa:.3f}, but the lower end of its 95% interval "
                             f"{shown} < min_agreement {gate.min_agreement:g} "
                             f"(min_agreement_on: lower_bound; more labels narrow it)")
        return _note(gate, "calibrated", found, None)

    def _decide(self, note: CalibrationNote, status: Status, message: str | None,
                judge: JudgeDetail | None) -> dict[str, object]:
        """The fields a gated row changes: status, message and its calibration note. A status
        judges did not give (`judges_said`: no vote answered, or a failure --require-judge made
        of a juror that could not be asked) is no verdict to call advisory: it stays as it is."""
        from mcptest.report.judge_models import judges_said  # the report's models: not at start

        if (status not in ("passed", "failed") or note.state == "calibrated"
                or not judges_said(status, message, judge)):
            return {"calibration": note}
        why = note.reason or _REASONS[note.state]
        said = f"judge said {status}" + (f": {message}" if message else "")
        if self.require:
            return {"status": "failed", "message": f"calibration required: {why}; {said}",
                    "calibration": note.model_copy(update={"verdict": status})}
        return {"status": "passed" if status == "passed" else "deferred",
                "message": f"advisory (uncalibrated: {why}); {said}",
                "calibration": note.model_copy(update={"verdict": status, "advisory": True})}

    def apply(self, test: PlannedTest, planned: PlannedAssertion, result: AssertionResult
              ) -> AssertionResult:
        note = self.note(test, planned)
        if note is None:
            return result
        return result.model_copy(update=self._decide(note, result.status, result.message,
                                                     result.judge))

    def apply_row(self, test: PlannedTest, row: TestResult) -> TestResult:
        """An eval row: its own verdict is the judge's, so the row itself is gated."""
        from mcptest.grade.diagnose import miscalibrated
        from mcptest.report.models import CalibrationNote
        note = self.note(test, None)
        if note is None:
            return row
        update = self._decide(note, row.status, row.message, row.judge)
        status = update.get("status", row.status)
        if status == "deferred":
            update["gap"] = None
        else:
            gated = update["calibration"]
            assert isinstance(gated, CalibrationNote)
            if status == "failed" and miscalibrated(gated):
                update["gap"] = "judge-calibration"
        return row.model_copy(update=update)


def record_warnings(record: CalibrationRecord) -> list[str]:
    """A jury record's pairs of jurors that err together, judged by today's
    `CORRELATED_ERRORS` (a record written under the old 0.7 warns too); else its own words."""
    from mcptest.calibrate.correlation import erring_together
    if not record.error_correlation:
        return list(record.warnings)
    n = len(record.jurors) or len(set(record.identity.models))
    return erring_together(record.error_correlation, record.effective_jurors, n)


def _note(gate: CalibrationGate, state: CalibrationState, record: CalibrationRecord | None,
          reason: str | None) -> CalibrationNote:
    from mcptest.report.corrected_models import JudgeErrorCounts
    from mcptest.report.models import CalibrationNote
    v = record.verdict if record is not None else None
    c = v.confusion if v else None
    return CalibrationNote(
        state=state, advisory=False, record=gate.file, reason=reason or _REASONS[state],
        labels=v.labels if v else None, kappa=v.kappa if v else None,
        kappa_ci95=v.kappa_ci95 if v else None, min_agreement_on=gate.min_agreement_on,
        effective_jurors=record.effective_jurors if record is not None else None,
        warnings=record_warnings(record)[:MAX_WARNINGS] if record is not None else [],
        alpha=v.alpha if v else None, accuracy=v.accuracy if v else None,
        false_pass_rate=v.false_pass.rate if v else None,
        false_fail_rate=v.false_fail.rate if v else None,
        min_agreement=gate.min_agreement, max_false_fail=gate.max_false_fail,
        errors=JudgeErrorCounts(
            human_fail=c.both_fail + c.false_pass, judge_fail=c.both_fail,
            human_pass=c.both_pass + c.false_fail, judge_pass=c.both_pass) if c else None)
