"""One grading of a candidate against a resolved rubric by one judge model (one "sample").

Free-form: one question. Criteria: one question per applicable criterion, all in parallel.
Tree: one question per node on the taken path only, in order. A jury or panel (see `verdict`)
takes several samples; every judge request goes through the shared `JudgeEngine`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

import anyio

from mcptest.evals import prompts
from mcptest.llm.contracts import JudgeOutcome, JudgeRequest

if TYPE_CHECKING:
    from mcptest.evals.rubric import ResolvedRubric
    from mcptest.llm.engine import JudgeEngine
    from mcptest.llm.verdict_modes import VerdictMode
    from mcptest.report.models import CriterionResult, TreeStep
    from mcptest.suite.models import Criterion, JudgeDefaults, TreeLeaf, TreeNode

SampleState = Literal["scored", "deferred", "budget", "error", "inconclusive"]
_UNSCORED: dict[str, Literal["deferred", "skipped"]] = {"deferred": "deferred",
                                                        "budget_skipped": "skipped"}
"""A criterion's status when its question got no score (else `error`)."""


@dataclass
class Sample:
    """One judge's answer to one repetition of an eval (or why there is none)."""

    model: str | None
    repetition: int
    state: SampleState = "scored"
    score: float | None = None
    passed: bool | None = None
    why: str = ""
    gate_failed: bool = False
    """Failed for a reason other than the score (guard, required, evidence, strict)."""
    criteria: list[CriterionResult] = field(default_factory=list)
    path: list[TreeStep] = field(default_factory=list)
    vacuous: bool = False
    outcomes: list[JudgeOutcome] = field(default_factory=list)
    units: list[float | None] = field(default_factory=list)
    """One rating per rated item (criterion, or the one holistic score) for agreement."""
    vote_passed: list[bool | None] = field(default_factory=list)
    """Per outcome: did that question come out well (criterion passed, tree yes, score ok)."""
    label: str | None = None
    """A labeled panel's answer (free-form rubric; docs/evals.md, "Verdict modes")."""


@dataclass(frozen=True)
class Asker:
    """Sends one judge question for a sample (model, endpoint, repetition are fixed)."""

    engine: JudgeEngine
    model: str | None
    base_url: str | None
    repetition: int
    defaults: JudgeDefaults | None
    mode: VerdictMode | None = None
    reference: Any = None
    """The eval's or test's `reference:` (docs/cascade.md); None: none."""

    async def __call__(self, rubric: str, candidate: Any) -> JudgeOutcome:
        return await self.engine.judge(JudgeRequest(
            rubric=rubric, candidate=candidate, model=self.model, base_url=self.base_url,
            repetition=self.repetition, defaults=self.defaults, mode=self.mode,
            reference=self.reference))


def _trouble(outcomes: list[JudgeOutcome]) -> tuple[SampleState, str] | None:
    order: tuple[tuple[str, SampleState], ...] = (
        ("budget_skipped", "budget"), ("judge_error", "error"), ("deferred", "deferred"),
        ("abstained", "inconclusive"))
    for status, state in order:
        hit = next((o for o in outcomes if o.status == status), None)
        if hit is not None:
            why = hit.message or hit.reason or status
            return state, why
    return None


async def grade_sample(rubric: ResolvedRubric, candidate: Any, text: str, prompt: str | None,
                       ask: Asker) -> Sample:
    """`candidate` goes to the judge as data; `text` is its string form for predicates."""
    s = Sample(model=ask.model, repetition=ask.repetition)
    if rubric.body is None:
        assert rubric.text is not None
        o = await ask(prompts.free_form(rubric.text, prompt), candidate)
        s.outcomes.append(o)
        if (t := _trouble(s.outcomes)) is not None:
            s.state, s.why = t
            return s
        if o.label is not None:  # labeled: the panel decides (evals/label_verdict.py)
            s.label, s.why, s.vote_passed = o.label, f"label `{o.label}`", [None]
            return s
        score = o.score or 0.0
        s.units = [score]
        _finish_holistic(s, score, rubric, o.reason)
        s.vote_passed = [s.passed]
        return s
    if rubric.body.tree is not None:
        return await _walk(s, rubric.body.tree, rubric, candidate, prompt, ask)
    return await _criteria(s, rubric.body.criteria or [], rubric, candidate, text, prompt, ask)


def _finish_holistic(s: Sample, score: float, rubric: ResolvedRubric, reason: str | None) -> None:
    s.score = score
    s.passed = score >= rubric.threshold and (not rubric.strict or score >= 1.0)
    op = "≥" if score >= rubric.threshold else "<"
    s.why = f"score {score:.2f} {op} threshold {rubric.threshold:.2f}"
    if rubric.strict and score < 1.0:
        s.why += "; strict: not a perfect score"
        s.gate_failed = True
    if reason:
        s.why += f": {reason}"


async def _walk(s: Sample, node: TreeNode | TreeLeaf, rubric: ResolvedRubric, candidate: Any,
                prompt: str | None, ask: Asker) -> Sample:
    from mcptest.report.models import TreeStep
    from mcptest.suite.models import TreeNode

    while isinstance(node, TreeNode):
        o = await ask(prompts.tree_question(node.ask, prompt), candidate)
        s.outcomes.append(o)
        if (t := _trouble([o])) is not None:
            s.path.append(TreeStep(ask=node.ask, answer=None, score=None))
            s.state, s.why = t
            return s
        yes = (o.score or 0.0) >= 0.5
        s.vote_passed.append(yes)
        s.path.append(TreeStep(ask=node.ask, answer="yes" if yes else "no", score=o.score))
        node = node.yes if yes else node.no
    s.units = [node.score]
    _finish_holistic(s, node.score, rubric, f"tree leaf: {node.reason}" if node.reason else None)
    return s


async def _criteria(s: Sample, criteria: list[Criterion], rubric: ResolvedRubric,
                    candidate: Any, text: str, prompt: str | None, ask: Asker) -> Sample:
    assert rubric.body is not None
    evidence = rubric.body.require_evidence
    if any(c.when is not None for c in criteria):
        from mcptest.evals.gates import when_holds

        applies = [when_holds(c.when, text) for c in criteria]
    else:  # every criterion is asked
        applies = [True] * len(criteria)
    answers: dict[int, JudgeOutcome] = {}

    async def one(i: int, c: Criterion) -> None:
        answers[i] = await ask(prompts.criterion(c, prompt, evidence=evidence), candidate)

    async with anyio.create_task_group() as tg:
        for i, c in enumerate(criteria):
            if applies[i]:
                tg.start_soon(one, i, c)
    s.outcomes = [answers[i] for i in sorted(answers)]
    if (t := _trouble(s.outcomes)) is not None:
        s.state, s.why = t
    # the answers are back: grading's own modules (warmed in the wait, run/warm.py)
    from mcptest.evals.gates import decide_criteria, evidence_found
    from mcptest.report.models import CriterionResult

    gated: list[str] = []
    for i, c in enumerate(criteria):
        gate = c.threshold if c.threshold is not None else rubric.threshold
        base = dict(name=c.name, weight=c.weight, required=c.required, guard=c.guard,
                    threshold=gate)
        if not applies[i]:
            s.criteria.append(CriterionResult(**base, status="skipped",
                                              reason="`when` does not hold: not judged"))
            continue
        o = answers[i]
        if o.status != "verdict" or o.score is None:
            status = _UNSCORED.get(o.status, "error")
            s.criteria.append(CriterionResult(**base, status=status, reason=o.message or o.reason))
            s.units.append(None)
            continue
        score, reason, shown = o.score, o.reason, o.evidence
        if evidence and not c.guard and not evidence_found(o.evidence, text):
            what = "no evidence quoted" if not o.evidence else (
                f"evidence not found verbatim in the candidate: {o.evidence!r}")
            score, reason, shown = 0.0, f"{what} (scored 0; judge said {o.score:.2f})", None
            gated.append(f"`{c.name}`: {what}")
        holds = score >= gate
        status = ("failed" if holds else "passed") if c.guard else (
            "passed" if holds else "failed")
        s.criteria.append(CriterionResult(**base, score=score, status=status, reason=reason,
                                          evidence=shown))
        s.units.append(score)
    status_of = {c.name: c.status for c in s.criteria}
    s.vote_passed = [status_of.get(criteria[i].name) == "passed" if answers[i].score is not None
                     else None for i in sorted(answers)]
    if s.state != "scored":
        return s
    s.score, s.passed, s.why, s.vacuous = decide_criteria(
        s.criteria, threshold=rubric.threshold, strict=rubric.strict,
        how=rubric.body.aggregation, gated=gated)
    scored = [c for c in s.criteria if not c.guard and c.score is not None
              and c.status != "skipped"]
    s.gate_failed = bool(gated) or any(
        c.status == "failed" and (c.guard or c.required) for c in s.criteria) or (
        rubric.strict and any((c.score or 0.0) < 1.0 for c in scored))
    return s
