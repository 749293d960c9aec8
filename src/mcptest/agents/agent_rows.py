"""One report row per agent model: run the loop, grade the transcript with the test's `expect`."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.agents.loop import run_agent
from mcptest.grade.diagnose import UNSENT, gap_category
from mcptest.grade.grader import LlmGrading, grade_test, test_verdict
from mcptest.grade.rows import test_result
from mcptest.llm.chat import AgentModel
from mcptest.suite.models import AgentTest, EvalSpec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.agents.transcript import Transcript
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult
    from mcptest.run.session import ServerConnection


def agent_model(test: PlannedTest, engine: JudgeEngine) -> AgentModel:
    spec = test.spec
    name = test.model or (spec.model if isinstance(spec, EvalSpec) else None)
    if name is None and isinstance(spec, AgentTest):
        name = spec.models[0]
    defaults = test.suite.suite.judge
    return AgentModel(engine.client, name or "", defaults)


async def transcript_for(test: PlannedTest, model: AgentModel,
                         servers: Mapping[str, ServerConnection]) -> Transcript:
    spec = test.spec
    if isinstance(spec, AgentTest):
        return await run_agent(model, servers, spec.prompt, system=spec.system,
                               max_turns=spec.max_turns, timeout=spec.timeout)
    assert isinstance(spec, EvalSpec)
    return await run_agent(model, servers, test.prompt or spec.prompt, max_turns=spec.max_turns)


_UNFINISHED: dict[str, tuple[Any, Any]] = {
    "budget": ("skipped", "budget"), "timeout": ("error", "transport"),
    "cut": ("error", "transport"), "unknown": ("error", "transport"),
    "refused": ("failed", "shape"), "model_error": ("error", "transport"),
}
"""Stop → (status, gap) of a run that ended without a final answer to grade: a cut or an
unknown stop is never graded as finished, a refusal is a failure with the provider's reason."""


def unfinished(test: PlannedTest, t: Transcript, start: float, require_judge: bool
               ) -> TestResult | None:
    """A row for a run with no final answer to grade (no route, no budget, a model error, a
    cut, refused or unknown turn), else None."""
    if t.stop == "deferred":
        if require_judge:
            return test_result(test, "failed", start=start, gap="environment",
                               message=f"agent model required but unavailable: {t.message}")
        return test_result(test, "deferred", start=start, message=f"deferred: {t.message}")
    if t.stop not in _UNFINISHED:
        return None
    status, gap = _UNFINISHED[t.stop]
    message = t.message
    if t.stop == "model_error":
        message = f"agent model {t.model} failed: {t.message}"
        if any(w in (t.message or "") for w in ("no known price", "unreachable: ", UNSENT)):
            gap = "environment"
    elif t.stop in ("cut", "unknown", "refused"):
        message = f"agent model {t.model}: {t.message}"
    return test_result(test, status, start=start, gap=gap, message=message,
                       response=t.produced(), extra_cost_usd=t.cost_usd,
                       extra_cost_known=t.cost_known)


async def run_agent_row(test: PlannedTest, engine: JudgeEngine, llm: LlmGrading,
                        servers: Mapping[str, ServerConnection]) -> TestResult:
    start = time.perf_counter()
    model = agent_model(test, engine)
    t = await transcript_for(test, model, servers)
    early = unfinished(test, t, start, engine.options.require_judge)
    if early is not None:
        return early
    produced = t.produced()
    # `duration_ms`: the agent run's own time (model turns and tool calls), as a target
    measured = {**produced, "duration_ms": round((time.perf_counter() - start) * 1000, 3)}
    verdict = test_verdict(test, await grade_test(test, measured, llm))
    assertions, status, message = verdict.assertions, verdict.status, verdict.message
    if t.stop == "max_turns":
        status, message = "failed", t.message
    gap: Any = gap_category(status, assertions, None)
    if t.stop == "max_turns":
        gap = "shape"
    return test_result(test, status, start=start, message=message, gap=gap,
                       assertions=assertions, response=produced, extra_cost_usd=t.cost_usd,
                       extra_cost_known=t.cost_known,
                       weighted=verdict.weighted)
