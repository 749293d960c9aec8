"""The judged assertions this package adds to `expect:` lists: `eval-rubric` and `custom-judge`.

`eval-rubric` grades the target (usually `transcript` or `final` of an agent test) with the
same engine as `evals:`; the agent's model is the generator for the jury analytics.
`custom-judge` hands the target to the suite's own judge; its cost goes into the run's ledger.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.errors import BudgetRefused
from mcptest.evals.context import JudgeContext
from mcptest.evals.custom import CustomVerdict, item_metadata, judge_name, run_custom
from mcptest.evals.rubric import resolve_rubric
from mcptest.evals.tool_descriptions import grade_listing, is_tool_listing
from mcptest.evals.verdict import judge_eval
from mcptest.grade.rows import assertion_result
from mcptest.llm.custom_meter import OverDeclared
from mcptest.llm.prompt import candidate_text
from mcptest.report.models import AssertionResult, JudgeDetail, JudgeVote, Status
from mcptest.suite.models import (
    AgentTest,
    CustomJudgeMatcher,
    EvalRubricMatcher,
    EvalSpec,
    ToolTest,
)

if TYPE_CHECKING:
    from mcptest.grade.judged_call import JudgedCall
    from mcptest.plan import PlannedAssertion, PlannedTest


def _result(planned: PlannedAssertion, status: Status, message: str, start: float,
            detail: JudgeDetail | None, cost: float = 0.0, cached: bool = False
            ) -> AssertionResult:
    return assertion_result(planned, status, message=message, start=start, judge=detail,
                            cost_usd=cost, cached=cached)


def _prompt(test: PlannedTest) -> str | None:
    spec = test.spec
    if isinstance(spec, AgentTest):
        return spec.prompt
    if isinstance(spec, EvalSpec):
        return test.prompt or spec.prompt
    return None


async def grade_eval_rubric(call: JudgedCall) -> AssertionResult:
    test, planned, candidate, engine = call.test, call.planned, call.candidate, call.engine
    start = time.perf_counter()
    m = planned.assertion.matcher
    assert isinstance(m, EvalRubricMatcher)
    rubric = resolve_rubric(m.eval_rubric, test.suite.suite.rubrics)
    if is_tool_listing(rubric, candidate):  # a whole tools/list, tool by tool
        listing = await grade_listing(rubric, candidate, engine=engine,
                                      defaults=test.suite.suite.judge)
        return _result(planned, listing.status, listing.message, start, listing.detail,
                       listing.cost_usd, listing.all_cached)
    out = await judge_eval(rubric, candidate, candidate_text(candidate), prompt=_prompt(test),
                           judge=None, matrix_model=None, engine=engine,
                           defaults=test.suite.suite.judge,
                           generator_model=test.model if test.kind == "agent" else None,
                           reference=getattr(test.spec, "reference", None))
    return _result(planned, out.status, out.message, start, out.detail, out.cost_usd,
                   out.all_cached)


async def grade_custom(call: JudgedCall) -> AssertionResult:
    test, planned, candidate, engine = call.test, call.planned, call.candidate, call.engine
    response = call.response
    start = time.perf_counter()
    m = planned.assertion.matcher
    assert isinstance(m, CustomJudgeMatcher)
    spec = m.custom_judge
    inp: Any = test.spec.args if isinstance(test.spec, ToolTest) else _prompt(test)
    context = JudgeContext(
        candidate=candidate, output=candidate, rubric=spec.rubric, criteria=spec.rubric,
        input=inp, target=planned.assertion.target, test=test.name, test_id=test.id,
        suite_file=test.suite_file, reference=getattr(test.spec, "reference", None),
        metadata=item_metadata(test, response))
    name = judge_name(spec)
    over: OverDeclared | None = None
    try:
        v = await engine.client.metered(
            name, spec.max_cost_usd,
            lambda: run_custom(spec, context, test.suite.path.parent, dict(engine.options.env)),
            lambda verdict: verdict.cost_usd)
    except BudgetRefused as e:  # not run: it could not fit under the cap
        detail = JudgeDetail(kind="custom", rubric=spec.rubric, threshold=spec.threshold,
                             votes=[JudgeVote(model=name, error=f"budget_skipped: {e}")])
        return _result(planned, "skipped", str(e), start, detail)
    except OverDeclared as e:
        over = e
        v = CustomVerdict(None, None, None, e.reported, f"over its declared cost: {e}")
    vote = JudgeVote(model=name, score=v.score, passed=v.passed, reason=v.reasoning,
                     error=v.error, cost_usd=v.cost_usd)
    detail = JudgeDetail(kind="custom", rubric=spec.rubric, score=v.score,
                         display_score=None if v.score is None else f"{v.score:.2f}",
                         threshold=spec.threshold, votes=[vote])
    if over is not None or v.error is not None or v.passed is None:
        return _result(planned, "error", f"judge error ({name}): {v.error}", start, detail,
                       v.cost_usd)
    why = f"{name}: {'pass' if v.passed else 'fail'}"
    if v.score is not None:
        why += f" (score {v.score:.2f})"
    if v.reasoning:
        why += f": {v.reasoning}"
    return _result(planned, "passed" if v.passed else "failed", why, start, detail, v.cost_usd)
