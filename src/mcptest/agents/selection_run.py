"""One selection row (docs/selection.md): the server's live tools, with their real
descriptions, offered to one model; each prompt asked `k` times; the tool each answer picks
counted (`grade/selection_grade.py`).

The samples go through the run's one model client like an agent's turns (pool, budget,
retries, cassettes), all at once: the pool bounds how many are in flight. A sample that fails
is not a vote; a budget refusal ends the row as `skipped`; a model nobody can reach defers it.
"""

from __future__ import annotations

import dataclasses
import json
import time
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.agents.tools import function_tools
from mcptest.grade.rows import test_result
from mcptest.grade.selection_grade import SelectionSample, stats_of, verdict, votes_of
from mcptest.llm.chat import AgentModel, ChatReply
from mcptest.suite.models import NO_TOOL, JudgeDefaults, SelectionSpec

SAMPLES_IN_FLIGHT = 64
"""Samples asked at once per selection row (the model client's pool bounds the run's)."""

if TYPE_CHECKING:
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedTest
    from mcptest.report.models import TestResult
    from mcptest.run.session import ServerConnection


def selection_model(test: PlannedTest, engine: JudgeEngine) -> AgentModel:
    """The row's model, at the block's temperature (else the suite's judge temperature)."""
    spec = test.spec
    assert isinstance(spec, SelectionSpec)
    defaults = test.suite.suite.judge
    if spec.temperature is not None:
        defaults = (defaults or JudgeDefaults()).model_copy(
            update={"temperature": spec.temperature})
    return AgentModel(engine.client, test.model or spec.models[0], defaults)


def _sample(reply: ChatReply, routes: dict[str, Any]) -> SelectionSample:
    if not reply.tool_calls:
        return SelectionSample(NO_TOOL)
    call = reply.tool_calls[0]
    route = routes.get(call.name)
    try:
        args = json.loads(call.arguments or "{}")
    except (json.JSONDecodeError, RecursionError):  # a model's (or a cassette's) bad JSON
        args = call.arguments[:2000]
    return SelectionSample(route.tool if route is not None else call.name, args)


async def run_selection_row(test: PlannedTest, engine: JudgeEngine,
                            conn: ServerConnection | None) -> TestResult:
    """The row; `conn` is None when the model cannot be reached (no server was started)."""
    spec = test.spec
    assert isinstance(spec, SelectionSpec)
    start = time.perf_counter()
    model = selection_model(test, engine)
    if conn is None or model.unroutable is not None:
        why = model.unroutable or f"server {spec.server!r} is not connected"
        if engine.options.require_judge:
            return test_result(test, "failed", start=start, gap="environment",
                               message=f"selection model required but unavailable: {why}")
        return test_result(test, "deferred", start=start, message=f"deferred: {why}")
    tools, routes = function_tools({spec.server: conn.tools})
    replies: list[list[ChatReply]] = [[] for _ in spec.prompts]

    jobs = iter([i for i in range(len(spec.prompts)) for _ in range(spec.k)])

    async def worker() -> None:
        for i in jobs:  # shared: each sample is taken by one worker, in order
            messages = ([{"role": "system", "content": spec.system}] if spec.system else []) + [
                {"role": "user", "content": spec.prompts[i].prompt}]
            reply = await model.complete(messages, tools, spec.timeout)
            # what the votes need, not the text: memory grows with samples, not with answers
            replies[i].append(dataclasses.replace(reply, content=None,
                                                  tool_calls=reply.tool_calls[:1]))

    async with anyio.create_task_group() as tg:  # a few workers, not a task per sample
        for _ in range(min(SAMPLES_IN_FLIGHT, len(spec.prompts) * spec.k)):
            tg.start_soon(worker)
    every = [r for rs in replies for r in rs]
    cost = sum(r.cost_usd for r in every)
    failed = [r for r in every if r.status != "ok"]
    stats = stats_of(spec, [votes_of(p, [_sample(r, routes) for r in rs if r.status == "ok"])
                            for p, rs in zip(spec.prompts, replies, strict=True)],
                     prompt_tokens=sum(r.prompt_tokens for r in every),
                     completion_tokens=sum(r.completion_tokens for r in every))
    said = next((r.message for r in failed if r.message), None)
    if any(r.status == "budget" for r in failed):
        row = test_result(test, "skipped", start=start, gap="budget", message=said,
                          extra_cost_usd=cost)
    elif not stats.scored and all(r.status == "deferred" for r in every):
        row = test_result(test, "deferred", start=start, message=f"deferred: {said}")
    elif not stats.scored:
        row = test_result(test, "error", start=start, gap="transport", extra_cost_usd=cost,
                          message=f"selection model {model.name} failed: {said}")
    else:
        passed, message = verdict(stats)
        if failed:
            message += f"; {len(failed)} of {len(every)} sample(s) got no answer: {said}"
        row = test_result(test, "passed" if passed else "failed", start=start,
                          gap=None if passed else "selection", message=message,
                          extra_cost_usd=cost)
    return row.model_copy(update={"selection": stats})
