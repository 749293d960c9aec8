"""One report row per eval cell: resolve, get the candidate (fixed or live), judge, classify."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from mcptest.evals.rubric import resolve_rubric
from mcptest.evals.verdict import judge_eval
from mcptest.grade.diagnose import classify_eval
from mcptest.llm.engine import JudgeEngine
from mcptest.report.models import JudgeDetail, Status, TestResult
from mcptest.suite.models import EvalSpec

if TYPE_CHECKING:
    from mcptest.agents.transcript import Transcript
    from mcptest.plan import PlannedTest


def row_result(test: PlannedTest, status: Status, *, start: float, message: str | None = None,
               gap: Any = None, judge: JudgeDetail | None = None, response: Any = None,
               cost_usd: float = 0.0, cache_hits: int = 0, **kw: Any) -> TestResult:
    from mcptest.run.runner import _response_for_report  # very large transcripts are cut

    spec = test.spec
    if response is not None:
        response = _response_for_report(response)
    return TestResult(
        id=test.id, name=test.name, kind=test.kind, suite_file=test.suite_file,
        server=getattr(spec, "server", None), model=test.model,
        cell=_cell(test), location=test.location,
        tags=list(test.tags), status=status, gap=gap, message=message,
        duration_ms=round((time.perf_counter() - start) * 1000, 3), response=response,
        judge=judge, cost_usd=round(cost_usd, 8), cache_hits=cache_hits, **kw)


def _cell(test: PlannedTest) -> dict[str, str] | None:
    """The row's coordinates as values: the model, and the whole prompt (the name shows its
    number)."""
    if not test.cell:
        return None
    cell = dict(test.cell)
    if "prompt" in cell and test.prompt is not None:
        cell["prompt"] = test.prompt
    return cell


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
                           defaults=suite.judge, generator_model=generator)
    extra = transcript.cost_usd if transcript is not None else 0.0
    return row_result(test, out.status, start=start, message=out.message, judge=out.detail,
                      gap=classify_eval(out.status, out.message, out.detail),
                      response=response, cost_usd=out.cost_usd + extra,
                      cache_hits=out.cache_hits)


def live_servers(test: PlannedTest) -> list[str]:
    """Servers a row needs started: the eval's server when live, an agent's `servers`."""
    spec = test.spec
    if isinstance(spec, EvalSpec):
        return [spec.server] if spec.response is None and spec.server else []
    return list(getattr(spec, "servers", []))


def unstarted(servers: Mapping[str, Any], names: list[str]) -> list[str]:
    return [n for n in names if n not in servers]
