"""Audit samples: a seeded random sample of a run's judged verdicts into a labelling sheet, and
the PPI++ estimate once people have labelled it (docs/statistics.md, "Audit samples").

The sheet is a labels file (docs/calibration.md) with an `audit:` block: the report it was
drawn from, the seed, how many judged verdicts there were, and what the judge said on each
sampled one. Filled in, it feeds `mcptest calibrate --labels` like any labels file; because its
rows were drawn at random from the run, it also gives the run's pass rate by prediction-powered
inference (`mcptest.stats.ppi`), unbiased whatever the judge.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import yaml

from mcptest.stats.ppi import PpiEstimate, ppi_mean

if TYPE_CHECKING:
    from mcptest.calibrate.labels import AuditBlock, Label
    from mcptest.report.models import Report


@dataclass(frozen=True)
class JudgedItem:
    """One judged verdict of a run: where it is, what the judge saw and said."""

    key: str
    """`<row id>#<assertion index>` (`#eval` for an eval row's own verdict; `@k` for the k-th
    repetition of a repeated row)."""
    test: str
    rubric: str | None
    candidate: Any
    passed: bool


def _verdict(status: str, advisory: str | None) -> bool | None:
    if advisory is not None:
        return advisory == "passed"
    return {"passed": True, "failed": False}.get(status)


def judged_items(report: Report) -> list[JudgedItem]:
    """Every judged verdict of the run, in report order (repetitions each count)."""
    out = []
    for row in report.tests:
        runs = row.repetitions or [row]
        for k, run in enumerate(runs, start=1):
            at = f"@{k}" if row.repetitions else ""
            if run.kind == "eval" and run.judge is not None:
                v = _verdict(run.status, run.calibration.verdict if run.calibration else None)
                if v is not None:
                    out.append(JudgedItem(f"{run.id}{at}#eval", run.name, run.judge.rubric,
                                          run.response, v))
            for a in run.assertions:
                if a.judge is None:
                    continue
                v = _verdict(a.status, a.calibration.verdict if a.calibration else None)
                if v is not None:
                    out.append(JudgedItem(f"{run.id}{at}#{a.index}", run.name, a.judge.rubric,
                                          a.actual, v))
    return out


def draw(items: list[JudgedItem], k: int, seed: int) -> list[JudgedItem]:
    """A simple random sample of `k` items (all of them when there are fewer), seeded."""
    if k >= len(items):
        return list(items)
    picked = sorted(random.Random(seed).sample(range(len(items)), k))
    return [items[i] for i in picked]


def sheet_text(report_path: str, items: list[JudgedItem], sample: list[JudgedItem],
               seed: int) -> str:
    """The labelling sheet as YAML: one label per sampled verdict, `human:` left empty."""
    data = {
        "audit": {"report": report_path, "seed": seed, "population": len(items),
                  "judge": {i.key: "pass" if i.passed else "fail" for i in sample}},
        "labels": [{"id": i.key, "candidate": i.candidate, "human": None,
                    "note": f"test: {i.test}" + (f"; rubric: {i.rubric}" if i.rubric else "")}
                   for i in sample],
    }
    head = ("# A labelling sheet (mcptest label --sample): set each `human:` to pass or fail.\n"
            "# Then: mcptest calibrate SUITE --labels THIS_FILE (the judge's record), and\n"
            "#       mcptest label REPORT --estimate THIS_FILE (the run's pass rate, PPI++).\n")
    return head + yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)


@dataclass(frozen=True)
class AuditEstimate:
    judged_rate: float
    """The judge's pass rate over every judged verdict of the run."""
    estimate: PpiEstimate | None


def estimate(items: list[JudgedItem], audit: AuditBlock, labels: list[Label],
             threshold: float = 0.5) -> AuditEstimate:
    """PPI++ over the run: the audited verdicts (human and judge) and the judge's verdicts on
    every other judged item."""
    human = {lab.id: 1.0 if lab.passed(threshold) else 0.0 for lab in labels if lab.id}
    audited = [k for k in audit.judge if k in human]
    unlabelled = [1.0 if i.passed else 0.0 for i in items if i.key not in human]
    judged = [1.0 if audit.judge[k] == "pass" else 0.0 for k in audited]
    rate = sum(1.0 for i in items if i.passed) / len(items) if items else 0.0
    return AuditEstimate(rate, ppi_mean([human[k] for k in audited], judged, unlabelled))
