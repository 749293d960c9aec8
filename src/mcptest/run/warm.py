"""What a judged run grades and reports with, imported while it waits for its first answer.

The path to a run's first judge request imports only what sends it: the modules that grade an
answer, build the report and render it are imported where they are used (docs/architecture.md,
"Costs"). The first answer then takes a judge's latency (hundreds of milliseconds) in which the
process has nothing to do, so the pipeline imports them in that wait, one module per turn of the
event loop: an answer that arrives meanwhile waits for at most one module. A run whose first
request never leaves (a replay, custom judges only, no key) imports them where they are used, as
before; so does a module missing from the list (`tests/pipeline/test_warm.py` keeps it whole).
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


async def warm_while_waiting(sent: anyio.Event, modules: Iterable[str]) -> None:
    """Once `sent` is set (the first request is on the wire), import `modules` not yet
    imported and build their models, one per turn of the event loop. Never fails the run: a
    module that cannot be imported raises where it is used, with its own context."""
    await sent.wait()
    for entry in modules:
        name, _, model = entry.partition(":")
        try:
            if model:
                getattr(importlib.import_module(name), model).model_rebuild()
            elif name not in sys.modules:
                importlib.import_module(name)
            else:
                continue
        except Exception:
            return
        await anyio.lowlevel.checkpoint()
