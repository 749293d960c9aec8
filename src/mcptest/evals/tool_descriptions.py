"""The `tool-description-quality` preset over a whole `tools/list` (docs/lint.md, "Description
quality, judged").

Each tool (name, description, input schema) is graded on its own with the preset's criteria by
the suite's judge; the listing's score is 0.6 × the mean tool score + 0.4 × the weakest tool's,
so one bad description cannot hide behind many good ones. Our own measure, not any directory's.
"""

from __future__ import annotations

import json
import statistics
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.evals.verdict import EvalOutcome, judge_eval
from mcptest.report.models import CriterionResult, JudgeDetail, Status

if TYPE_CHECKING:
    from mcptest.evals.rubric import ResolvedRubric
    from mcptest.llm.engine import JudgeEngine
    from mcptest.suite.models import JudgeDefaults

PRESET = "preset:tool-description-quality"
MEAN_WEIGHT, WEAKEST_WEIGHT = 0.6, 0.4


def is_tool_listing(rubric: ResolvedRubric, candidate: Any) -> bool:
    """The preset applied to `result.tools` (a list of tool objects) of a `list: tools` test."""
    return rubric.source == PRESET and isinstance(candidate, list) and all(
        isinstance(t, dict) and "name" in t for t in candidate)


def tool_text(tool: dict[str, Any]) -> str:
    """What the judge reads of one tool."""
    schema = json.dumps(tool.get("inputSchema") or {}, sort_keys=True)[:2000]
    return (f"Tool name: {tool.get('name')}\nDescription: {tool.get('description') or ''}\n"
            f"Input schema: {schema}")


def combined(scores: list[float]) -> float:
    return MEAN_WEIGHT * statistics.fmean(scores) + WEAKEST_WEIGHT * min(scores)


async def grade_listing(rubric: ResolvedRubric, tools: list[dict[str, Any]], *,
                        engine: JudgeEngine, defaults: JudgeDefaults | None) -> EvalOutcome:
    outcomes: list[EvalOutcome | None] = [None] * len(tools)

    async def one(i: int, tool: dict[str, Any]) -> None:
        text = tool_text(tool)
        outcomes[i] = await judge_eval(rubric, text, text, prompt=None, judge=None,
                                       matrix_model=None, engine=engine, defaults=defaults,
                                       generator_model=None)

    async with anyio.create_task_group() as tg:
        for i, tool in enumerate(tools):
            tg.start_soon(one, i, tool)
    done = [o for o in outcomes if o is not None]
    per_tool = [CriterionResult(name=str(t.get("name")), score=o.detail.score,
                                threshold=rubric.threshold,
                                status="passed" if o.status == "passed" else (
                                    "error" if o.status == "error" else "failed"),
                                reason=o.message)
                for t, o in zip(tools, done, strict=True)]
    scores = [c.score for c in per_tool if c.score is not None]
    cost = sum(o.cost_usd for o in done)
    votes = [v for o in done for v in o.detail.votes]
    unsent = next((o for o in done if o.status in ("deferred", "skipped")), None)
    status: Status
    if not tools:
        status, score, message = "failed", None, "the listing has no tools to grade"
    elif unsent is not None:
        status, score, message = unsent.status, None, unsent.message
    elif len(scores) < len(tools):
        status, score = "error", None
        message = "no score for " + ", ".join(c.name for c in per_tool if c.score is None)
    else:
        score = combined(scores)
        weakest = min(per_tool, key=lambda c: c.score or 0.0)
        passed = score >= rubric.threshold
        status = "passed" if passed else "failed"
        message = (f"description quality {score:.2f} {'≥' if passed else '<'} threshold "
                   f"{rubric.threshold:.2f} (0.6 × mean {statistics.fmean(scores):.2f} + 0.4 × "
                   f"weakest {weakest.score:.2f}: `{weakest.name}`)")
    detail = JudgeDetail(kind="eval", rubric=rubric.describe(), score=score,
                         display_score=None if score is None else f"{score:.2f}",
                         threshold=rubric.threshold, votes=votes, criteria=per_tool)
    return EvalOutcome(status=status, message=message, detail=detail, cost_usd=cost,
                       cache_hits=sum(o.cache_hits for o in done),
                       all_cached=bool(done) and all(o.all_cached for o in done))
