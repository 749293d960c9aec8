"""One report row per eval cell: resolve, get the candidate (fixed or live), judge, classify."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, cast

from mcptest.evals.rubric import resolve_rubric
from mcptest.evals.verdict import judge_eval
from mcptest.suite.models import EvalSpec

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.agents.transcript import Transcript
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult
    from mcptest.suite.models import SelectionSpec


def eval_prompt(test: PlannedTest) -> str:
    assert isinstance(test.spec, EvalSpec)
    return test.prompt or test.spec.prompt


def agent_model_of(test: PlannedTest) -> str | None:
    """The model that writes a live eval's candidate (matrix cell, else the eval's `model`)."""
    assert isinstance(test.spec, EvalSpec)
    return test.model or test.spec.model


async def run_eval_row(test: PlannedTest, engine: JudgeEngine,
                       transcript: Transcript | None = None) -> TestResult:
    """Judge a fixed response, or the transcript of a live run the caller already made."""
    start = time.perf_counter()
    spec = test.spec
    assert isinstance(spec, EvalSpec)
    suite = test.suite.suite
    rubric = resolve_rubric(spec.rubric, suite.rubrics, spec.threshold)
    live = spec.response is None
    response: Any = None
    if live:
        assert transcript is not None
        candidate: Any = transcript.text()
        response = transcript.produced()
        generator, matrix_model = transcript.model, None
    else:
        candidate, generator, matrix_model = spec.response, None, test.model
    out = await judge_eval(rubric, candidate, str(candidate), prompt=eval_prompt(test),
                           judge=spec.judge, matrix_model=matrix_model, engine=engine,
                           defaults=suite.judge, generator_model=generator,
                           reference=spec.reference)
    extra = transcript.cost_usd if transcript is not None else 0.0
    from mcptest.grade.diagnose import classify_eval
    from mcptest.grade.rows import test_result

    return test_result(test, out.status, start=start, message=out.message, judge=out.detail,
                       gap=classify_eval(out.status, out.message, out.detail),
                       response=response, extra_cost_usd=out.cost_usd + extra,
                       extra_cost_known=transcript is None or transcript.cost_known,
                       cache_hits=out.cache_hits)


NOTHING_TO_GRADE = ("no `response` to grade and no `server` to run the prompt against live "
                    "(give one of them to grade this eval)")


def nothing_to_grade(test: PlannedTest, require_judge: bool) -> TestResult:
    """An eval with neither a response nor a server: deferred with a note, as a key-free run
    defers (docs/evals.md); under --require-judge it fails (docs/decisions.md)."""
    from mcptest.grade.rows import test_result
    if require_judge:
        return test_result(test, "failed", duration_ms=0.0, gap="environment",
                           message=f"judge required but unavailable: {NOTHING_TO_GRADE}")
    return test_result(test, "deferred", duration_ms=0.0, message=f"deferred: {NOTHING_TO_GRADE}")


def live_servers(test: PlannedTest) -> list[str]:
    """Servers a row needs started: the eval's server when live, an agent's `servers`, a
    selection block's server."""
    spec = test.spec
    if test.kind == "eval":
        assert isinstance(spec, EvalSpec)
        return [spec.server] if spec.response is None and spec.server else []
    if test.kind == "selection":
        return [cast("SelectionSpec", spec).server]
    return list(getattr(spec, "servers", []))


def unstarted(servers: Mapping[str, Any], names: list[str]) -> list[str]:
    return [n for n in names if n not in servers]
