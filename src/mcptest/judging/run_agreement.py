"""The run's agreement figures: alpha across every jury and panel of the run, with its band,
and the labels' nominal alpha (docs/jury.md, "Run-level agreement").

Computed once the rows are graded (the judging's totals, the merge of repetitions and of
shards), so a run's path to its first judge request never imports it.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from mcptest.grade.aggregate import plurality
from mcptest.grade.agreement_nominal import run_label_agreement
from mcptest.grade.juror_independence import run_effective_jurors
from mcptest.grade.run_alpha import RunAlpha, run_alpha
from mcptest.report.models import Interval, RunAgreement

if TYPE_CHECKING:
    from mcptest.report.models import TestResult


def _every_run(tests: list[TestResult]) -> list[TestResult]:
    """Each repetition of a repeated test (its row shows one of them), else the row itself."""
    return [r for t in tests for r in (t.repetitions or [t])]


def agreements(tests: list[TestResult]) -> dict[str, Any]:
    """The run's agreement fields of `JudgeTotals`: the scores' alpha with its band, counts and
    interval, and the labels' alpha."""
    found = score_agreement(tests)
    jurors, worth = run_effective_jurors(tests)
    detail = None if found is None else RunAgreement(
        band=found.band, juries=found.juries, unanimous=found.unanimous,
        ci95=None if found.ci95 is None else Interval(low=found.ci95[0], high=found.ci95[1]),
        jurors=jurors, effective_jurors=worth)
    return {"run_agreement": None if found is None else found.alpha,
            "run_agreement_detail": detail, "run_agreement_labels": label_agreement(tests)}


def score_agreement(tests: list[TestResult]) -> RunAlpha | None:
    """Alpha across every jury, eval jury and panel of the run: one unit per assertion or eval
    row, one row per juror seat (docs/jury.md, "Run-level agreement")."""
    per_assertion: list[list[list[float | None]]] = []
    for t in _every_run(tests):
        for a in t.assertions:
            if a.judge is None or a.judge.kind != "llm-jury":
                continue
            seats: dict[str, list[float]] = {}
            for v in a.judge.votes:
                if v.score is not None:
                    seats.setdefault(v.replacement_for or v.model, []).append(v.score)
            if seats:
                per_assertion.append([[statistics.median(s)] for s in seats.values()])
        if t.judge is not None and t.judge.jury is not None:
            # an eval jury or panel: one seat per grading (model, repetition), valued at the
            # mean of its ratings (criteria, or the one holistic score)
            gradings: dict[tuple[str, int], list[float]] = {}
            for v in t.judge.votes:
                if v.score is not None:
                    gradings.setdefault((v.model, v.repetition), []).append(v.score)
            if gradings:
                per_assertion.append([[statistics.fmean(g)] for g in gradings.values()])
    return run_alpha(per_assertion)


def label_agreement(tests: list[TestResult]) -> float | None:
    """Nominal alpha across the labeled juries of the run (docs/jury.md, "Verdict modes")."""
    per_assertion: list[list[str]] = []
    own_alpha: list[float | None] = []
    for t in _every_run(tests):
        for judge in [a.judge for a in t.assertions] + [t.judge]:  # juries, then eval panels
            if judge is None or judge.verdict_kind != "labeled":
                continue
            seats: dict[str, list[str]] = {}
            for v in judge.votes:
                if v.label is not None:
                    seats.setdefault(v.replacement_for or v.model, []).append(v.label)
            own = [plurality([(1.0, x) for x in labels])[0] for labels in seats.values()]
            per_assertion.append([x for x in own if x is not None])
            own_alpha.append(None if judge.jury is None else judge.jury.answers_raw
                             if judge.jury.answers_raw is not None else judge.jury.agreement_raw)
    pairable = [k for k, u in enumerate(per_assertion) if len(u) >= 2]
    if len(pairable) == 1:  # one jury: its own alpha (it knows how many labels it had)
        return own_alpha[pairable[0]]
    return run_label_agreement(per_assertion) if per_assertion else None
