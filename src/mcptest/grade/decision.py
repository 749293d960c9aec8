"""The jury's decision (docs/jury.md, "The decision"): one pure function from the seats'
ballots and the jury's rule to its outcome, with the agreement, band and escalation beside it.

`llm-jury` (the quorum and every verdict mode) and eval juries and panels (docs/evals.md) turn
their seats into `Ballot`s and their settings into a `Rule`, and read the `Decision`: none keeps
a rule of its own. There is one quorum rule (`weighted_quorum`), one majority rule
(`aggregate.plurality`: the answer with the most weight; a tie goes to `tie_break`, else decides
nothing), one check that seats not in (deferred, or not asked under `early_stop`) could not change
the outcome, and one agreement statistic (`agreement.decision_agreement`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Literal

from mcptest.grade.aggregate import central, plurality, weighted_quorum
from mcptest.grade.agreement import Agreement, decision_agreement

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcptest.report.models import Status

SeatState = Literal["answered", "abstained", "error", "deferred", "budget"]
Answer = str | float
How = Literal["quorum", "plurality", "mean", "median"]
Outcome = Literal["passed", "failed", "unknown", "inconclusive", "deferred", "required",
                  "skipped", "error"]
_MIXES = 4096
"""Past this many mixes of answers of the missing seats, a non-monotone rule waits."""


@dataclass(frozen=True)
class Ballot:
    """One seat of a jury or panel: what its juror (or sample) said, its repetitions reduced."""

    state: SeatState = "answered"
    """`answered` (a verdict), `abstained` (no verdict, or repetitions that tie), `error`
    (failed mechanically), `deferred` (unreachable, or not asked yet), `budget` (refused)."""
    weight: float = 1.0
    passed: bool | None = None
    """The seat's own pass or fail; None when it has none (a label without passing labels)."""
    answer: Answer | None = None
    """What the plurality or the mean/median counts: a label (`pass`/`fail` for a boolean), or
    a score in the rule's units. The quorum counts `passed` only."""
    gate_failed: bool = False
    """Failed for a reason other than its score (an eval's guard, required criterion, strict)."""
    ratings: tuple[float | None, ...] = ()
    """Its 0..1 ratings, one per unit (criterion or repetition round), for the agreement."""
    labels: tuple[str | None, ...] = ()
    """Its labels, one per repetition, for the nominal agreement of a labeled jury."""


@dataclass(frozen=True)
class JuryRule:
    """How a jury decides (docs/jury.md: the quorum rule, "Verdict modes"; docs/evals.md)."""

    how: How = "quorum"
    quorum: float = 0.5
    threshold: float = 0.7
    """A mean or median passes at or above it (in the scores' own units)."""
    passing: frozenset[str] | None = frozenset({"pass"})
    """Plurality: the answers that pass; None: passed is unknown (the label is the verdict)."""
    tie_break: Literal["pass", "fail"] | None = None
    """Plurality of pass/fail: what an even split gives; None: a tie decides nothing."""
    min_decisive: int = 1
    space: tuple[Answer, ...] = ("pass", "fail")
    """What a seat not in could answer: every label, or a score range's two ends."""
    can_gate: bool = False
    """A mean or median seat not in could fail a gate whatever its score (eval rubrics)."""
    require_judge: bool = False
    categories: int = 2
    """Labels offered, for the one-unit nominal agreement."""


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    answer: Answer | None = None
    """The panel's answer: the plurality label, or the mean or median; None for the quorum."""
    passed: bool | None = None
    passed_n: int = 0
    """Decisive seats that passed."""
    decisive: int = 0
    fraction: float | None = None
    """The quorum rule's weighted passing fraction (rounded half-up to two decimals)."""
    tally: Mapping[str, float] = field(default_factory=dict)
    """Plurality: the weight behind each answer."""
    missing: int = 0
    """Deferred seats (decided without them, or waited for)."""
    short: bool = False
    """Deferred because the missing seats could still make up `min_decisive`."""
    if_all_pass: object = None
    if_all_fail: object = None
    """Deferred under a monotone rule: what it would say if every missing seat passed, failed."""
    agreement: Agreement | None = None


def decisive(ballots: Sequence[Ballot], rule: JuryRule) -> list[Ballot]:
    """The seats the rule counts: answered with what the rule reads."""
    if rule.how == "quorum":
        return [b for b in ballots if b.state == "answered" and b.passed is not None]
    if rule.how == "plurality":
        return [b for b in ballots if b.state == "answered" and b.answer is not None]
    return [b for b in ballots if b.state == "answered"]


def _answer(heads: Sequence[Ballot], rule: JuryRule) -> tuple[Answer | None, bool | None]:
    """The panel's answer and whether it passes, from decisive seats."""
    if rule.how == "quorum":
        return None, weighted_quorum([(b.weight, bool(b.passed)) for b in heads], rule.quorum).met
    if rule.how == "plurality":
        winner, _ = plurality([(b.weight, str(b.answer)) for b in heads], rule.tie_break)
        if winner is None:
            return None, False
        return winner, (None if rule.passing is None else winner in rule.passing)
    values = [(b.weight, float(b.answer)) for b in heads if b.answer is not None]
    if not values:  # no seat rated anything (an eval's vacuous criteria): their own verdicts
        return None, all(b.passed for b in heads)
    stat = central(values, rule.how)
    assert stat is not None
    return stat, stat >= rule.threshold and not any(b.gate_failed for b in heads)


def status_key(heads: Sequence[Ballot], rule: JuryRule) -> object:
    """What of the answer decides the status: pass or fail, or the label itself when there are
    no passing answers (then the label is the verdict)."""
    answer, passed = _answer(heads, rule)
    if rule.how == "plurality" and rule.passing is None:
        return answer
    return passed is True


def _monotone(rule: JuryRule) -> bool:
    """Every seat's pass only helps and its fail only hurts: the two unanimous ends bound it."""
    if rule.how != "plurality":
        return True
    return rule.passing == frozenset({"pass"}) and set(rule.space) <= {"pass", "fail"}


def extreme(weight: float, ok: bool, rule: JuryRule) -> Ballot:
    """A seat not in, answering at one end: passing with the best answer, or failing with the
    worst (and a gate, when a missing seat could fail one)."""
    if rule.how in ("mean", "median"):
        ends = sorted(float(x) for x in rule.space) if rule.space else [0.0, 1.0]
        return Ballot(weight=weight, passed=ok, answer=ends[-1] if ok else ends[0],
                      gate_failed=not ok and rule.can_gate)
    return Ballot(weight=weight, passed=ok, answer="pass" if ok else "fail")


def _mixes(pending: Sequence[float], rule: JuryRule) -> list[list[Ballot]] | None:
    """The answers of the seats not in worth trying; None when there are too many."""
    if _monotone(rule):
        return [[extreme(w, ok, rule) for w in pending] for ok in (True, False)]
    choices: list[Answer | None] = [*rule.space, None]
    if len(choices) ** len(pending) > _MIXES:
        return None
    return [[Ballot(weight=w, answer=a, passed=None) for w, a in zip(pending, mix, strict=True)
             if a is not None] for mix in itertools.product(choices, repeat=len(pending))]


def could_change(heads: Sequence[Ballot], pending: Sequence[float], rule: JuryRule) -> bool:
    """Whether seats not in (their weights) could still change what the decisive `heads` decide:
    pass, fail, abstain, or make up `min_decisive`."""
    if not pending:
        return False
    if len(heads) < max(1, rule.min_decisive):
        return len(heads) + len(pending) >= max(1, rule.min_decisive)
    mixes = _mixes(pending, rule)
    if mixes is None:
        return True
    now = status_key(heads, rule)
    return any(status_key([*heads, *mix], rule) != now for mix in mixes)


def settled(present: Sequence[Ballot], pending: Sequence[float], rule: JuryRule) -> bool:
    """Early stop: `min_decisive` decisive seats are in and no answer of the `pending` seats
    (weights) can change the outcome (docs/jury.md, "Early stop")."""
    heads = decisive(present, rule)
    return len(heads) >= max(1, rule.min_decisive) and not could_change(heads, pending, rule)


def next_wave(present: Sequence[Ballot], pending: Sequence[float], rule: JuryRule) -> int:
    """How many of the `pending` seats (in order) to ask next: the fewest whose unanimous answer
    settles the outcome whichever it is, so a wave that agrees is the last; all of them when no
    smaller wave can. A wave that settles only one way would ask an agreeing jury one seat at
    a time: slower, and nothing saved."""
    for k in range(1, len(pending)):
        wave, rest = pending[:k], pending[k:]
        if all(settled([*present, *(extreme(w, ok, rule) for w in wave)], rest, rule)
               for ok in (True, False)):
            return k
    return len(pending)


def decide(ballots: Sequence[Ballot], rule: JuryRule) -> Decision:
    """The jury's outcome, in order: a budget refusal skips it; missing seats fail it under
    `--require-judge`, else defer it while they could change it; no decisive seat is an error
    (every seat failed mechanically) or inconclusive, as are fewer than `min_decisive` and a
    tie; else the rule decides: passed, failed, or unknown (a label without passing labels).
    The answer, tally and counts of the decisive seats are filled in whatever the outcome."""
    heads = decisive(ballots, rule)
    missing = [b.weight for b in ballots if b.state == "deferred"]
    answer, passed = _answer(heads, rule) if heads else (None, None)
    fraction = tally = None
    if rule.how == "quorum" and heads:
        fraction = weighted_quorum([(b.weight, bool(b.passed)) for b in heads], 0.0).fraction
    if rule.how == "plurality":
        tally = plurality([(b.weight, str(b.answer)) for b in heads])[1]
    found = Decision("inconclusive", answer=answer, passed=passed,
                     passed_n=sum(1 for b in heads if b.passed), decisive=len(heads),
                     fraction=fraction, tally=tally or {}, missing=len(missing))
    if any(b.state == "budget" for b in ballots):
        return replace(found, outcome="skipped")
    if missing and rule.require_judge:
        return replace(found, outcome="required")
    if could_change(heads, missing, rule):
        bounds: dict[str, object] = {}
        if _monotone(rule):
            bounds = {f"if_all_{k}": status_key([*heads, *(extreme(w, ok, rule)
                                                           for w in missing)], rule)
                      for k, ok in (("pass", True), ("fail", False))}
        return replace(found, outcome="deferred", short=len(heads) < rule.min_decisive,
                       if_all_pass=bounds.get("if_all_pass"),
                       if_all_fail=bounds.get("if_all_fail"))
    agreement = decision_agreement(
        [b.ratings for b in heads], [b.labels for b in heads],
        None if rule.how == "plurality" and rule.passing is None else [b.passed for b in heads],
        rule.categories)
    found = replace(found, agreement=agreement)
    if not heads:
        states = {b.state for b in ballots}
        error = "error" in states and "abstained" not in states
        return replace(found, outcome="error" if error else "inconclusive")
    if len(heads) < rule.min_decisive or (rule.how == "plurality" and answer is None):
        return found  # too few decisive seats, or a tie: inconclusive
    return replace(found, outcome="unknown" if passed is None else
                   "passed" if passed else "failed")


def budget_words(why: str | None) -> str:
    """A budget refusal's message, said once with its cause (`budget: …`)."""
    msg = why or "refused"
    return msg if msg.startswith("budget") else f"budget: {msg}"


def unsettled(d: Decision, *, seats: int, who: str, deferred_why: str | None,
              budget_why: str | None, last_error: str | None = None,
              waiting: str | None = None) -> tuple[Status, str] | None:
    """The status and message of a jury or panel that settled on no answer, the same for an
    `llm-jury` in every mode and an eval's jury or panel (docs/jury.md, "The decision"): refused
    by the budget (`skipped`), seats deferred under `--require-judge` (`failed`), deferred seats
    that could change it (`deferred`), every seat failed mechanically (`error`, when the caller
    gives the last error). None: the rule decided, and the caller words how.

    `who` names the seats (`juror(s)`, `judge(s)`); `waiting` says why deferred seats matter,
    else that their answers could change the verdict."""
    if d.outcome == "skipped":
        return "skipped", budget_words(budget_why)
    if d.outcome == "required":
        return "failed", (f"judge required but unavailable: {d.missing} of {seats} {who} "
                          f"deferred: {deferred_why}")
    if d.outcome == "deferred":
        waiting = waiting or (f"{d.missing} {who} deferred and their answers could change the "
                              "verdict")
        return "deferred", f"deferred: {waiting}: {deferred_why}"
    if d.outcome == "error" and last_error is not None:
        return "error", f"every juror failed mechanically; last: {last_error}"
    return None
