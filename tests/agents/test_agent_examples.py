"""The agent and cascade example suites run end to end against scripted models."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from evals.conftest import judge_env, row, run_suite
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_agents_example(js: JudgeServer) -> None:
    for model in ("gpt-4o-mini", "gpt-4o"):
        js.script(model, [ToolCalls(("greet", {"name": "Ada"})),
                          ToolCalls(("forecast", {"city": "Oslo"})),
                          Fault.text("Hi Ada: Oslo will be windy today.")],
                  candidate="forecast for Oslo")
    js.script("gpt-4o-mini", ToolCalls(("greet", {"name": "Zed"})), candidate="Keep calling")
    for model in ("anthropic/claude-haiku-4-5", "gemini/gemini-2.5-flash", "gpt-4o-mini"):
        js.script(model, Verdict(0.9), rubric="Rubric:")
    report = run_suite(EXAMPLES / "agents.yml", judge_env(js, MCPTEST_PYTHON=sys.executable))
    for model in ("gpt-4o-mini", "gpt-4o"):
        r = row(report, f"looks up a forecast and reports it [model={model}]")
        assert r.status == "passed", [(a.target, a.message) for a in r.assertions]
        custom = r.assertions[-1]
        assert custom.matcher == "custom-judge" and custom.judge is not None
        assert custom.judge.votes[0].reason == "7 words"
    loop = row(report, "stops a model that never answers")
    assert loop.status == "failed" and (loop.message or "").startswith("stopped at max_turns=2")


def test_cascade_example(js: JudgeServer) -> None:
    js.script("gpt-4o-mini", Verdict(0.9))
    report = run_suite(EXAMPLES / "cascade.yml", judge_env(js, MCPTEST_PYTHON=sys.executable),
                       tools=True, evals=False)
    assert [(t.status, t.gap) for t in report.tests] == [
        ("passed", None), ("failed", "shape"), ("failed", "tool-error")]
    keyword = report.tests[0].assertions[1]
    assert keyword.judge is not None and keyword.judge.votes[0].reason == "all present"
    assert js.count("gpt-4o-mini") == 1
