"""An eval jury or panel as the decision sees it (`grade/decision.py`): its samples as ballots,
its judge settings as the rule, and the words of a decided panel.

A pass only raises a jury's passing fraction, a panel's mean or median, and its majority; a
fail only lowers them; a missing grading is neither. So every outcome of `n` gradings not in
lies between "all pass with 1.0" and "all fail with 0.0 (and fail a gate, when the rubric has
gates)", and the decision tries those two (docs/jury.md, "Partial juries"; docs/evals.md, "Early
stop").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.grade import decision
from mcptest.grade.decision import Ballot, Decision, JuryRule, SeatState

if TYPE_CHECKING:
    from mcptest.evals.rubric import ResolvedRubric
    from mcptest.evals.sample import Sample
    from mcptest.suite.models import EvalJudge

_STATE: dict[str, SeatState] = {"scored": "answered", "deferred": "deferred",
                                "budget": "budget", "error": "error",
                                "inconclusive": "abstained"}


def _can_gate(rubric: ResolvedRubric) -> bool:
    """Whether a grading can fail a gate (strict, a guard or required criterion, evidence)
    whatever its score: then a missing one might fail a mean or median panel on its own."""
    body = rubric.body
    return rubric.strict or (body is not None and (bool(body.require_evidence) or any(
        c.guard or c.required for c in body.criteria or [])))


def _how(mode: str, judge: EvalJudge | None) -> str:
    if mode != "panel":
        return "quorum"
    if judge is not None and (judge.verdict_kind == "categorical" or judge.labels):
        return "majority"  # each member's pass or fail (or label), counted (docs/evals.md)
    return judge.aggregate if judge else "mean"


def eval_rule(mode: str, rubric: ResolvedRubric | None, judge: EvalJudge | None,
              quorum: float, require_judge: bool = False) -> JuryRule:
    """The decision's rule for an eval jury (`quorum` is its consensus) or panel (a mean or
    median one reads the `rubric`'s threshold and gates)."""
    how = _how(mode, judge)
    if judge is not None and judge.labels:
        passing = None if judge.passing_labels is None else frozenset(judge.passing_labels)
        return JuryRule(how="plurality", passing=passing, space=tuple(judge.labels),
                    categories=len(judge.labels), require_judge=require_judge)
    if how == "quorum":
        return JuryRule(how="quorum", quorum=quorum, require_judge=require_judge)
    if how == "majority":
        return JuryRule(how="plurality", tie_break=judge.tie_break if judge else "fail",
                    require_judge=require_judge)
    assert rubric is not None
    return JuryRule(how="median" if how == "median" else "mean", threshold=rubric.threshold,
                space=(0.0, 1.0), can_gate=_can_gate(rubric), require_judge=require_judge)


def sample_ballot(s: Sample, rule: JuryRule) -> Ballot:
    """One sample: its pass or fail, and what the rule counts (its score, `pass`/`fail`, or
    its label), with its ratings (or label) for the agreement."""
    labeled = rule.how == "plurality" and rule.space != ("pass", "fail")
    if labeled:
        passed = None if s.label is None or rule.passing is None else s.label in rule.passing
        return Ballot(state=_STATE[s.state], passed=passed, answer=s.label,
                      labels=(s.label if s.state == "scored" else None,))
    answer: str | float | None = s.score
    if rule.how == "plurality":
        answer = None if s.passed is None else ("pass" if s.passed else "fail")
    return Ballot(state=_STATE[s.state], passed=s.passed, answer=answer,
                  gate_failed=s.gate_failed,
                  ratings=tuple(s.units) if s.state == "scored" else ())


def sample_ballots(done: list[Sample], rule: JuryRule) -> list[Ballot]:
    return [sample_ballot(s, rule) for s in done]


def panel_words(d: Decision, decisive: list[Sample], rubric: ResolvedRubric,
                judge: EvalJudge | None) -> str:
    """Why a decided panel passed or failed."""
    how = _how("panel", judge)
    if how == "majority":
        tie = judge.tie_break if judge else "fail"
        why = f"majority: {d.passed_n} of {d.decisive} panel member(s) passed"
        if 2 * d.passed_n == d.decisive:
            why += f" (even split, tie_break {tie})"
        return why
    if not isinstance(d.answer, float):  # every member was vacuous
        return "vacuous pass on every panel member" if d.passed else "no panel score"
    stat = d.answer
    why = f"panel {how} {stat:.2f} {'≥' if stat >= rubric.threshold else '<'} threshold " \
          f"{rubric.threshold:.2f}"
    gates = [s.why for s in decisive if s.gate_failed]
    return why + ("; gate failed: " + gates[0] if gates else "")


def waits(mode: str, decisive: list[Sample], n: int, rubric: ResolvedRubric,
          judge: EvalJudge | None, quorum: float) -> str | None:
    """Why a jury or panel must wait for `n` gradings not in yet, or None when no verdict of
    theirs could change the outcome."""
    rule = eval_rule(mode, rubric, judge, quorum)
    heads = decision.decisive(sample_ballots(decisive, rule), rule)
    if mode == "single" or decision.could_change(heads, [1.0] * n, rule):
        return f"{n} judge(s) deferred and their verdicts could change the outcome"
    return None


def next_sample_wave(mode: str, done: list[Sample], pending: int, rubric: ResolvedRubric,
              judge: EvalJudge | None, quorum: float) -> int:
    """With `early_stop`: how many of the `pending` gradings to ask next (0: stop). A deferred
    grading counts as not yet in; a budget refusal stops it (the eval is skipped)."""
    if any(s.state == "budget" for s in done):
        return 0
    rule = eval_rule(mode, rubric, judge, quorum)
    present = sample_ballots(done, rule)
    rest = [1.0] * (pending + sum(1 for s in done if s.state == "deferred"))
    if done and decision.settled(present, rest, rule):
        return 0
    return min(pending, decision.next_wave(present, rest, rule))  # deferred ones come last
