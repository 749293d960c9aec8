"""The run's word on committed evidence a pull request changed (docs/cassettes.md, "What is
trusted"): each row names the calibration records it rests on that differ from the merge-base
(the cassette it was replayed from is named as the row is recorded, `run/tapes.py`), and the
run's warnings name every such file once, with how many verdicts rest on it, so the PR comment
says so even when everything passed."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.readback.evidence import ChangedEvidence
    from mcptest.report.models import Report, TestResult


def _records(row: TestResult) -> list[str]:
    notes = [row.calibration, *(a.calibration for a in row.assertions)]
    return [n.record for n in notes if n is not None and n.record_changed]


def mark_changed_evidence(report: Report, evidence: ChangedEvidence | None) -> Report:
    """`report` with its rows' changed records in `evidence` and a warning per changed file."""
    if evidence is None:
        return report
    rows: list[TestResult] = []
    resting: dict[str, int] = {}
    records: set[str] = set()
    for row in report.tests:
        records.update(_records(row))
        extra = [f for f in _records(row) if f not in row.evidence]
        if extra:
            row = row.model_copy(update={"evidence": [*row.evidence, *dict.fromkeys(extra)]})
        for file in row.evidence:
            resting[file] = resting.get(file, 0) + 1
        rows.append(row)
    said: list[str] = []
    # distrusting with nothing to compare (a fork's run without git): worth a word only when a
    # verdict rested on a cassette or record; an explicit base that failed is always said
    if evidence.unknown is not None and (resting or not evidence.distrust):
        said.append(f"could not tell which cassettes and records changed since {evidence.base}: "
                    f"{evidence.unknown}" + ("; every one is treated as changed, so none is "
                                             "trusted" if evidence.distrust else ""))
    if evidence.source is not None and (resting or evidence.distrust):
        said.append(f"which cassettes and records changed since {evidence.base} was taken "
                    f"from {evidence.source}")
    trust = "not trusted here" if evidence.distrust else "review it"
    for file, n in sorted(resting.items()):
        kind = "a calibration record" if file in records else "a model cassette"
        said.append(f"evidence this pull request changed: {file} ({kind}; {n} verdict(s) rest "
                    f"on it; {trust})")
    if not said:
        return report
    return report.model_copy(update={"tests": rows, "warnings": [*report.warnings, *said]})
