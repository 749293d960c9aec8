"""When an eval jury or panel is settled: the rule that decides it, and whether the gradings not
in yet (unreachable, or not asked under `early_stop`) could still change what it says.

A pass only raises a jury's passing fraction, a panel's mean or median, and its majority; a
fail only lowers them; a missing grading is neither. So every outcome of `n` gradings not in
lies between "all pass with 1.0" and "all fail with 0.0 (and fail a gate, when the rubric has
gates)", and those two cases decide (docs/jury.md, "Partial juries"; docs/evals.md, "Early
stop").
"""

from __future__ import annotations

import statistics

from mcptest.evals.rubric import ResolvedRubric
from mcptest.evals.sample import Sample
from mcptest.grade.aggregate import weighted_quorum
from mcptest.suite.models import EvalJudge


def panel_rule(decisive: list[Sample], rubric: ResolvedRubric,
               judge: EvalJudge | None) -> tuple[bool, str, float | None]:
    """Pass or fail, why, and the statistic decided on (None for `majority`)."""
    passed_n = sum(1 for s in decisive if s.passed)
    how = judge.aggregate if judge else "mean"
    if judge is not None and judge.verdict_kind == "categorical":
        how = "majority"  # each member's pass or fail, counted (docs/evals.md)
    tie = judge.tie_break if judge else "fail"
    scores = [s.score for s in decisive if s.score is not None]
    if how == "majority":
        failed_n = len(decisive) - passed_n
        ok = passed_n > failed_n or (passed_n == failed_n and tie == "pass")
        why = f"majority: {passed_n} of {len(decisive)} panel member(s) passed"
        if passed_n == failed_n:
            why += f" (even split, tie_break {tie})"
        return ok, why, None
    if not scores:  # every member was vacuous
        ok = all(s.passed for s in decisive)
        return ok, "vacuous pass on every panel member" if ok else "no panel score", None
    stat = statistics.fmean(scores) if how == "mean" else float(statistics.median(scores))
    gates = [s.why for s in decisive if s.gate_failed]
    ok = stat >= rubric.threshold and not gates
    why = f"panel {how} {stat:.2f} {'≥' if stat >= rubric.threshold else '<'} threshold " \
          f"{rubric.threshold:.2f}"
    if gates:
        why += "; gate failed: " + gates[0]
    return ok, why, stat


def verdict_of(mode: str, decisive: list[Sample], rubric: ResolvedRubric,
               judge: EvalJudge | None, quorum: float) -> bool:
    if mode == "jury":
        return weighted_quorum([(1.0, bool(s.passed)) for s in decisive], quorum).met
    return panel_rule(decisive, rubric, judge)[0]


def _can_gate(rubric: ResolvedRubric) -> bool:
    """Whether a grading can fail a gate (strict, a guard or required criterion, evidence)
    whatever its score: then a missing one might fail a mean or median panel on its own."""
    body = rubric.body
    return rubric.strict or (body is not None and (bool(body.require_evidence) or any(
        c.guard or c.required for c in body.criteria or [])))


def stand_ins(ok: bool, n: int, rubric: ResolvedRubric) -> list[Sample]:
    """`n` gradings that all pass with 1.0, or all fail with 0.0 (and a gate, if it can)."""
    return [Sample(model=None, repetition=0, score=1.0 if ok else 0.0, passed=ok,
                   gate_failed=not ok and _can_gate(rubric)) for _ in range(n)]


def waits(mode: str, decisive: list[Sample], n: int, rubric: ResolvedRubric,
          judge: EvalJudge | None, quorum: float) -> str | None:
    """Why a jury or panel must wait for `n` gradings not in yet, or None when no verdict of
    theirs could change the outcome."""
    if decisive and mode != "single":
        now = verdict_of(mode, decisive, rubric, judge, quorum)
        high = verdict_of(mode, decisive + stand_ins(True, n, rubric), rubric, judge, quorum)
        low = verdict_of(mode, decisive + stand_ins(False, n, rubric), rubric, judge, quorum)
        if now == high == low:
            return None
    return f"{n} judge(s) deferred and their verdicts could change the outcome"


def next_wave(mode: str, done: list[Sample], pending: int, rubric: ResolvedRubric,
              judge: EvalJudge | None, quorum: float) -> int:
    """With `early_stop`: how many of the `pending` gradings to ask next (0: stop). A deferred
    grading counts as not yet in; a budget refusal stops it (the eval is skipped)."""
    if any(s.state == "budget" for s in done):
        return 0
    missing = sum(1 for s in done if s.state == "deferred")
    decisive = [s for s in done if s.state == "scored"]

    def settled(heads: list[Sample], rest: int) -> bool:
        return bool(heads) and waits(mode, heads, rest + missing, rubric, judge, quorum) is None

    if done and settled(decisive, pending):
        return 0
    for k in range(1, pending):  # a wave that agrees, either way, is the last (grade/aggregate)
        if all(settled(decisive + stand_ins(ok, k, rubric), pending - k) for ok in (True, False)):
            return k
    return pending
