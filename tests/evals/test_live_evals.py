"""Live evals: the prompt runs as an agent on the eval's server; the matrix varies the agent."""

from __future__ import annotations

from pathlib import Path

from evals.conftest import judge_env, judge_requests, row, run_suite
from support.cli_run import HEAD
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict


def test_live_matrix_varies_the_agent_model(tmp_path: Path, js: JudgeServer) -> None:
    suite = tmp_path / "live.yml"
    suite.write_text(HEAD + """evals:
  - name: greets
    server: ex
    prompt: "Greet Ada using the tool."
    rubric: "The answer greets Ada."
    judge: {panel: [gpt-4o-mini, gemini-judge], aggregate: mean}
    matrix: {models: [gpt-4o, claude-agent]}
""", encoding="utf-8")
    js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})), Fault.text("Hello, Ada!")])
    js.script("claude-agent", Fault.text("Hi there."))
    js.script("gpt-4o-mini", Verdict(0.9))
    js.script("gemini-judge", Verdict(0.8))
    js.script("gemini-judge", Verdict(0.1), candidate="Final answer: Hi there.")
    report = run_suite(suite, judge_env(js))
    openai_row = row(report, "greets [model=gpt-4o]")
    claude_row = row(report, "greets [model=claude-agent]")
    assert openai_row.model == "gpt-4o" and openai_row.cell == {"model": "gpt-4o"}
    assert openai_row.status == "passed" and claude_row.status == "failed"
    assert openai_row.response["tool_calls"][0]["name"] == "greet"
    assert openai_row.judge and openai_row.judge.jury and openai_row.judge.jury.same_family
    assert claude_row.judge and claude_row.judge.jury and not claude_row.judge.jury.same_family
    graded = [b["messages"][1]["content"] for b in judge_requests(js)]
    assert len(graded) == 4 and all("Greet Ada using the tool." in g for g in graded)
    assert sum("Tool call 1: greet" in g for g in graded) == 2
    assert report.summary.projected_judge_calls == 4
