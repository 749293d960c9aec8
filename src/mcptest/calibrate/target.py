"""Which judged assertion of a suite a labels file calibrates, and where its record lives."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.calibrate.record import JudgeIdentity, identity_of
from mcptest.errors import UsageError
from mcptest.evals.rubric import ResolvedRubric, resolve_rubric
from mcptest.evals.verdict import seats
from mcptest.suite.models import CalibrationGate, EvalSpec, LlmJudgeMatcher, LlmJuryMatcher

if TYPE_CHECKING:
    from pathlib import Path

    from mcptest.plan import Plan, PlannedAssertion, PlannedTest


@dataclass(frozen=True)
class Target:
    test: PlannedTest
    planned: PlannedAssertion | None
    """None for an eval row (the eval's own rubric is the judge)."""
    identity: JudgeIdentity
    gate: CalibrationGate | None

    @property
    def record_path(self) -> Path | None:
        return record_path(self.test, self.gate)


def gate_of(test: PlannedTest, planned: PlannedAssertion) -> CalibrationGate | None:
    """The assertion's own `calibration:`, else the suite's; None for other matchers."""
    m = planned.assertion.matcher
    if isinstance(m, LlmJudgeMatcher):
        own = m.llm_judge.calibration
    elif isinstance(m, LlmJuryMatcher):
        own = m.llm_jury.calibration
    else:
        return None
    return own or test.suite.suite.calibration


def identity_for(test: PlannedTest, planned: PlannedAssertion) -> JudgeIdentity | None:
    m = planned.assertion.matcher
    spec = (m.llm_judge if isinstance(m, LlmJudgeMatcher)
            else m.llm_jury if isinstance(m, LlmJuryMatcher) else None)
    return None if spec is None else identity_of(spec, test.suite.suite.judge)


def record_path(test: PlannedTest, gate: CalibrationGate | None) -> Path | None:
    """The gate's `file`, relative to the suite file's folder."""
    if gate is None:
        return None
    return test.suite.path.parent / gate.file


def eval_rubric(test: PlannedTest) -> ResolvedRubric:
    spec = test.spec
    assert isinstance(spec, EvalSpec)
    return resolve_rubric(spec.rubric, test.suite.suite.rubrics, spec.threshold)


def eval_matrix_model(test: PlannedTest) -> str | None:
    """The model a matrix cell puts in the judge's seat (fixed-response evals only)."""
    spec = test.spec
    assert isinstance(spec, EvalSpec)
    return test.model if spec.response is not None else None


def eval_identity(test: PlannedTest) -> JudgeIdentity | None:
    """An eval's judge: its resolved rubric (text, or the body as JSON), threshold and seats."""
    spec = test.spec
    if not isinstance(spec, EvalSpec):
        return None
    rubric = eval_rubric(test)
    text = rubric.text if rubric.text is not None else json.dumps(
        rubric.body.model_dump(mode="json") if rubric.body else None, sort_keys=True)
    defaults = test.suite.suite.judge
    fallback = (defaults.model if defaults else None) or "(default)"
    mode, who = seats(spec.judge, eval_matrix_model(test))
    consensus = spec.judge.jury.consensus if spec.judge and spec.judge.jury else None
    return JudgeIdentity(kind="eval", rubric=f"{mode}: {text}", threshold=rubric.threshold,
                         models=[seat.model or fallback for seat in who], quorum=consensus,
                         repetitions=len(who))


def eval_gate(test: PlannedTest) -> CalibrationGate | None:
    spec = test.spec
    if not isinstance(spec, EvalSpec):
        return None
    return spec.calibration or test.suite.suite.calibration


def judged_targets(plan: Plan) -> list[Target]:
    out: list[Target] = []
    for test in plan.tests:
        identity = eval_identity(test)
        if identity is not None:
            out.append(Target(test, None, identity, eval_gate(test)))
        for planned in test.assertions:
            identity = identity_for(test, planned)
            if identity is not None:
                out.append(Target(test, planned, identity, gate_of(test, planned)))
    return out


def select_target(plan: Plan, test_name: str | None) -> Target:
    """The one judge identity of the suite (or of the tests matching `--test`)."""
    targets = judged_targets(plan)
    if test_name is not None:
        needle = test_name.lower()
        targets = [t for t in targets if needle in t.test.name.lower() or needle in t.test.id]
    distinct = {t.identity.hash: t for t in targets}
    if not distinct:
        raise UsageError("no llm-judge, llm-jury or eval to calibrate"
                         + (f" in tests matching {test_name!r}" if test_name else ""))
    if len(distinct) > 1:
        names = ", ".join(sorted({t.test.name for t in targets}))
        raise UsageError(f"{len(distinct)} different judges ({names}); pick one with --test NAME")
    return next(iter(distinct.values()))
