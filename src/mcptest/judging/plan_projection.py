"""The one judge-call counter: every model call a plan may make, known before anything runs.

The run header, `eval --explain` and the `--max-cost` unknown-price check all read it. Judged
matchers stand alone in `expect` (the loader rejects them inside `all`/`any`/`not`), so each
assertion's calls are its own; eval rows and `eval-rubric` assertions count their rubric's
questions per seat (docs/evals.md), agent rows their turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from mcptest.errors import SourcePos
from mcptest.evals.projection import project_agent_rubrics, project_eval
from mcptest.llm.cost_bound import PlannedCall, litellm_needed, project_cost
from mcptest.llm.price_table import price_table
from mcptest.suite.models.matcher_kinds import matcher_kind

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from pydantic import BaseModel

    from mcptest.llm.contracts import Projection
    from mcptest.plan import Plan, PlannedAssertion, PlannedTest
    from mcptest.suite.models import (
        AgentTest,
        EvalSpec,
        JudgeDefaults,
        LlmJudgeMatcher,
        LlmJuryMatcher,
        SelectionSpec,
    )


def _where(t: PlannedTest, p: PlannedAssertion | None = None) -> SourcePos:
    loc = p.location if p is not None else t.location
    return SourcePos(loc.file, loc.line, loc.column)


def assertion_calls(t: PlannedTest, p: PlannedAssertion) -> list[PlannedCall]:
    """Judge requests one `llm-judge`/`llm-jury` assertion may send: an escalation cascade's
    every tier, its worst case (jury replacements, sent only when a juror fails mechanically,
    are not counted)."""
    return matcher_calls(p.assertion.matcher, t.suite.suite.judge, _where(t, p))


def matcher_calls(m: BaseModel, d: JudgeDefaults | None, where: SourcePos) -> list[PlannedCall]:
    # by the kind's name, so a plan without judged matchers loads no judged matcher's model
    kind = matcher_kind(m)
    if kind == "llm-judge":
        judge = cast("LlmJudgeMatcher", m).llm_judge
        return [PlannedCall(judge.model, judge.base_url, d, where)] + [
            c for tier in judge.escalate or [] for c in matcher_calls(tier, d, where)]
    if kind == "llm-jury":
        jury = cast("LlmJuryMatcher", m).llm_jury
        return [PlannedCall(j.model, j.base_url, d, where)
                for j in jury.jurors] * jury.repetitions
    return []


def test_calls(t: PlannedTest) -> list[PlannedCall]:
    """Every model request one planned test may send: its judged assertions, its eval seats,
    its `eval-rubric` assertions, and its agent loop (one entry carrying `max_turns`)."""
    d = t.suite.suite.judge
    rubrics = t.suite.suite.rubrics
    out = [c for p in t.assertions for c in assertion_calls(t, p)]
    projections = []
    if t.kind == "eval":
        projections = [project_eval(cast("EvalSpec", t.spec), rubrics, model=t.model)]
    elif t.kind == "selection":  # k samples of each prompt, each one request
        selection = cast("SelectionSpec", t.spec)
        return [PlannedCall(t.model, None, d, _where(t),
                            agent_turns=selection.k * len(selection.prompts))]
    else:  # `eval-rubric` assertions of tool, resource, prompt, list and agent tests
        projections = project_agent_rubrics(t.spec, rubrics)
    for e in projections:
        out += [PlannedCall(s.model, s.base_url, d, _where(t)) for s in e.seats] * e.questions
    if t.kind == "agent":
        out.append(PlannedCall(t.model, None, d, _where(t),
                               agent_turns=cast("AgentTest", t.spec).max_turns))
    elif t.kind == "eval" and (spec := cast("EvalSpec", t.spec)).response is None:
        out.append(PlannedCall(t.model or spec.model, None, d, _where(t),
                               agent_turns=spec.max_turns))
    return out


def plan_calls(plan: Plan) -> list[PlannedCall]:
    """Every model request of the plan, listed once for all the questions below."""
    return [c for t in plan.tests for c in test_calls(t)]


def project(plan: Plan, env: Mapping[str, str],
            times: Callable[[PlannedTest], int] | None = None,
            ) -> tuple[Projection, dict[str, SourcePos]]:
    """The plan's judge calls and cost bound, and model → first use of unpriced models.
    `times` gives how often each test runs (`--repeat`, `repeat:`); once when omitted."""
    if times is None:
        return project_calls(plan_calls(plan), env)
    return project_calls([c for t in plan.tests for c in test_calls(t) * times(t)], env)


def project_calls(calls: list[PlannedCall], env: Mapping[str, str]
                  ) -> tuple[Projection, dict[str, SourcePos]]:
    return project_cost(calls, env, price_table())


def has_agent_rows(calls: list[PlannedCall]) -> bool:
    return any(c.agent_turns for c in calls)


def needs_litellm(calls: list[PlannedCall], env: Mapping[str, str]) -> bool:
    """Whether any model call of the plan goes through litellm rather than the fast route."""
    return litellm_needed(calls, env)
