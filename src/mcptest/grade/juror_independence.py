"""How many independent jurors each jury of a run rests on (docs/jury.md, "Effective jurors").

A jury is worth its jurors only when their mistakes are their own: with n jurors whose errors
correlate ρ̄ on average, it carries the evidence of n / (1 + (n − 1)·ρ̄) independent ones (Kish's
design effect for equally correlated observations, Kish 1965, *Survey Sampling*, §8.2). Where
the jury has a calibration record, ρ̄ is its jurors' error correlation against human labels
(`calibrate/correlation.py`). Otherwise the run has no truth to measure errors against, and ρ̄
is the correlation of the jurors' pass/fail votes over the run's juries of the same jurors.
Votes also agree because both jurors are right, so that ρ̄ is never below the errors' and the
number it gives is a floor: the jury is worth at least that many independent jurors.

The figure is the run's, not one answer's: every jury of the same jurors carries the same one,
so it is computed at the end of the run (and again over merged shards and repetitions).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Mapping, Sequence
from itertools import combinations

from mcptest.report.models import (
    AssertionResult,
    CalibrationNote,
    EffectiveJurors,
    JudgeDetail,
    TestResult,
)

MIN_JURIES = 10
"""Juries two jurors must both have voted on before their votes' correlation is estimated:
below it one changed vote moves ρ by more than 0.1, and the figure would be noise."""

SeatVotes = dict[str, float | None]
"""One jury: each juror's share of pass votes over its repetitions (None: it gave none)."""


def design_effect(jurors: int, correlations: Sequence[float]) -> float | None:
    """n / (1 + (n − 1)·ρ̄), ρ̄ the mean of `correlations` with negative ones counted as 0
    (jurors whose errors avoid each other are not worth more than n); None without any."""
    if jurors < 2 or not correlations:
        return None
    mean = sum(max(0.0, r) for r in correlations) / len(correlations)
    return round(jurors / (1 + (jurors - 1) * mean), 3)


def vote_dependence(juries: Sequence[SeatVotes]) -> EffectiveJurors:
    """The effective jurors of one set of jurors from their votes over `juries` (each naming
    the same jurors; those that never voted, deferred or lost everywhere, are left out):
    Pearson's r of each pair over the juries both voted on (the standard library's
    `statistics.correlation`: numpy would cost a judged run ~90 ms of import), where there are
    `MIN_JURIES` of them and both jurors' votes varied."""
    names = sorted({name for jury in juries for name, v in jury.items() if v is not None})
    if len(names) < 2:
        return EffectiveJurors(jurors=len({name for jury in juries for name in jury}),
                               basis="votes", note="fewer than two of these jurors gave a "
                                                   "pass/fail vote in the run")
    rhos: list[float] = []
    most = 0
    for a, b in combinations(names, 2):
        pairs = [(float(va), float(vb)) for jury in juries
                 if (va := jury.get(a)) is not None and (vb := jury.get(b)) is not None]
        most = max(most, len(pairs))
        x, y = [p[0] for p in pairs], [p[1] for p in pairs]
        if len(pairs) >= MIN_JURIES and len(set(x)) > 1 and len(set(y)) > 1:
            rhos.append(statistics.correlation(x, y))
    value = design_effect(len(names), rhos)
    note: str | None = None
    if value is None:
        counted = f"{most} {'jury' if most == 1 else 'juries'}"
        note = (f"{counted} of these jurors in the run, {MIN_JURIES} needed" if most < MIN_JURIES
                else f"their votes never varied over {counted}")
    return EffectiveJurors(
        jurors=len(names), value=value, basis="votes",
        mean_correlation=None if not rhos else round(sum(max(0.0, r) for r in rhos) / len(rhos),
                                                      6),
        items=most, note=note)


def _from_labels(jurors: int, note: CalibrationNote | None) -> EffectiveJurors | None:
    """The calibration record's figure, from the jurors' errors against human labels, when the
    record is this jury's (not stale: the same jurors) and trusted."""
    if (note is None or note.effective_jurors is None or jurors < 2
            or note.state in ("stale", "untrusted")):
        return None
    value = note.effective_jurors
    rho = (jurors / value - 1) / (jurors - 1) if value > 0 else None
    return EffectiveJurors(jurors=jurors, value=value, basis="labels",
                           mean_correlation=None if rho is None else round(rho, 6),
                           items=note.labels or 0)


def seat_votes(judge: JudgeDetail) -> SeatVotes:
    """Each juror's share of pass votes on this jury. An `llm-jury` seat is a model (its
    `repetitions:` are one ballot; a stand-in votes for the seat it fills); an eval's jury or
    panel has a seat per grading, a model and a repetition, as the run-level α counts them."""
    said: dict[str, list[bool]] = {}
    for v in judge.votes:
        name = v.replacement_for or v.model
        seat = said.setdefault(name if judge.kind == "llm-jury" else f"{name} #{v.repetition}", [])
        if v.passed is not None:
            seat.append(v.passed)
    return {name: (sum(x) / len(x) if x else None) for name, x in said.items()}


def _juries(test: TestResult) -> list[JudgeDetail]:
    """The juries of one run of a test: its jury assertions, then its eval jury or panel."""
    found = [a.judge for a in test.assertions
             if a.judge is not None and a.judge.kind == "llm-jury" and a.judge.jury is not None]
    if test.judge is not None and test.judge.jury is not None:
        found.append(test.judge)
    return found


def _every_run(tests: Sequence[TestResult]) -> list[TestResult]:
    return [r for t in tests for r in (t.repetitions or [t])]


Figures = Mapping[tuple[str, ...], EffectiveJurors]


def _key(judge: JudgeDetail) -> tuple[str, ...]:
    return tuple(sorted(seat_votes(judge)))


def _annotate(judge: JudgeDetail | None, note: CalibrationNote | None,
              figures: Figures) -> JudgeDetail | None:
    if judge is None or judge.jury is None:
        return judge
    key = _key(judge)
    figure = _from_labels(len(key), note) or figures.get(key)
    if figure is None:
        return judge
    return judge.model_copy(update={
        "jury": judge.jury.model_copy(update={"effective_jurors": figure})})


def _test(test: TestResult, annotate: Callable[[JudgeDetail | None, CalibrationNote | None],
                                               JudgeDetail | None]) -> TestResult:
    assertions: list[AssertionResult] = [
        a.model_copy(update={"judge": annotate(a.judge, a.calibration)})
        if a.judge is not None and a.judge.kind == "llm-jury" else a for a in test.assertions]
    return test.model_copy(update={
        "assertions": assertions, "judge": annotate(test.judge, test.calibration),
        "repetitions": [_test(r, annotate) for r in test.repetitions]})


def with_effective_jurors(tests: Sequence[TestResult]) -> list[TestResult]:
    """The tests with every jury's `effective_jurors` set: from its calibration record where
    it has one, else from the votes of every jury of the same jurors over the run."""
    groups: dict[tuple[str, ...], list[SeatVotes]] = {}
    for run in _every_run(tests):
        for judge in _juries(run):
            votes = seat_votes(judge)
            if len(votes) >= 2:
                groups.setdefault(tuple(sorted(votes)), []).append(votes)
    if not groups:
        return list(tests)
    figures = {key: vote_dependence(juries) for key, juries in groups.items()}
    return [_test(t, lambda j, n: _annotate(j, n, figures))
            if any(_juries(r) for r in (t.repetitions or [t])) else t for t in tests]


def run_effective_jurors(tests: Sequence[TestResult]) -> tuple[float | None, float | None]:
    """(mean jurors, mean effective jurors) over the run's score juries: what the run-level
    α rests on. The second is over the juries that have a figure."""
    seats: list[int] = []
    worth: list[float] = []
    for run in _every_run(tests):
        for judge in _juries(run):
            e = judge.jury.effective_jurors if judge.jury is not None else None
            if judge.verdict_kind == "labeled" or e is None:
                continue
            seats.append(e.jurors)
            if e.value is not None:
                worth.append(e.value)
    if not seats:
        return None, None
    return (round(sum(seats) / len(seats), 3),
            round(sum(worth) / len(worth), 3) if worth else None)
