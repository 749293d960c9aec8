"""What a judged run grades and reports with, imported while it waits for its first answer.

The path to a run's first judge request imports only what sends it: the modules that grade an
answer, build the report and render it are imported where they are used (docs/architecture.md,
"Costs"). The first answer then takes a judge's latency (hundreds of milliseconds) in which the
process has nothing to do, so the pipeline imports them in that wait, one module per turn of the
event loop: an answer that arrives meanwhile waits for at most one module. A run whose first
request never leaves (a replay, custom judges only, no key) imports them where they are used, as
before; so does a module missing from the list (`tests/pipeline/test_warm.py` keeps it whole).

A run that also times requests to servers (tool, resource, prompt, list tests) imports them all
before it starts instead: one module can hold the event loop for tens of milliseconds, and a
request timed meanwhile would count them in its `duration_ms`, "the request's own time"
(docs/suites.md, "Latency and cost limits").
"""

from __future__ import annotations

import importlib
import sys
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel

if TYPE_CHECKING:
    from collections.abc import Iterable

AFTER_ANSWER: tuple[str, ...] = (
    "mcptest.evals.settle",
    "mcptest.evals.gates",
    "mcptest.suite.advice",
    "mcptest.report.models",
    "mcptest.grade.jury",
    "mcptest.grade.diagnose",
    "mcptest.grade.rows",
    "mcptest.calibrate.target",
    "mcptest.grade.juror_independence",
    "mcptest.report.build",
    "mcptest.judging.run_agreement",
    "mcptest.report.changed_evidence",
    "mcptest.judging.shift_recheck",
    # the models used once an answer is back, built (defer_build) innermost first so each
    # reuses the last
    "mcptest.llm.contracts:JudgeOutcome",
    "mcptest.llm.contracts:JudgeStats",
    "mcptest.report.vote_models:JudgeVote",
    "mcptest.report.vote_models:EffectiveJurors",
    "mcptest.report.base:Interval",
    "mcptest.report.measures:RunAgreement",
    "mcptest.report.judge_models:JudgeDetail",
    "mcptest.report.corrected_models:JudgeCorrection",
    "mcptest.report.result_models:TestResult",
    "mcptest.report.models:Counts",
    "mcptest.report.models:Summary",
    "mcptest.report.models:ToolInfo",
    "mcptest.report.models:Report",
)
"""Smallest first, each after the modules it imports, so that each turn stays short: a module,
or `module:Model`, a pydantic model whose validator is built on first use, built now."""

TOOL_GRADING: tuple[str, ...] = (
    "mcptest.grade.absent",
    "mcptest.grade.diagnose",
    "mcptest.grade.grader",
    "mcptest.grade.rows",
    "mcptest.grade.structural",
    "mcptest.suite.models.assertion:Assertion",
    "mcptest.report.result_models:AssertionResult",
    "mcptest.report.result_models:TestResult",
)
"""What grades a request's answer, imported and built before a run's first request is timed
(`run/tool_test_run.py`): a test's grading runs beside the next test's request, and its first
imports and model builds (~30 ms) held the event loop while that request was timed, so the
second test of a run took 16-30 ms against 2 ms for the others (`duration_ms` is "the request's
own time", docs/suites.md)."""


async def warm_while_waiting(sent: anyio.Event, modules: Iterable[str]) -> None:
    """Once `sent` is set (the first request is on the wire), import `modules` not yet
    imported and build their models, one per turn of the event loop. Never fails the run: a
    module that cannot be imported raises where it is used, with its own context."""
    await sent.wait()
    for entry in modules:
        try:
            if not _warm(entry):
                continue
        except Exception:
            return
        await anyio.lowlevel.checkpoint()


def warm_now(modules: Iterable[str]) -> None:
    """Import `modules` and build their models at once, before a run that times requests
    starts. Never fails the run, as `warm_while_waiting`."""
    for entry in modules:
        try:
            _warm(entry)
        except Exception:
            return


def _warm(entry: str) -> bool:
    """Import one `module` or build one `module:Model`; False when there was nothing to do."""
    name, _, model = entry.partition(":")
    if model:
        getattr(importlib.import_module(name), model).model_rebuild()
    elif name not in sys.modules:
        importlib.import_module(name)
    else:
        return False
    return True
