"""Tables of cases on evals and agent tests, through the CLI and the loopback judge: each case
fills the prompt, the response and the rubric text; `eval --explain` counts case rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evals.conftest import JUDGE, judge_env
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

SUITE = HEAD + """evals:
  - name: sums
    prompt: "What is ${a} + ${b}?"
    response: "${a} + ${b} = ${sum}"
    rubric: "The sum of ${a} and ${b} is stated correctly."
    cases: {file: sums.jsonl}
agents:
  - name: greets
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet ${who}."
    cases: [{who: Ada}, {who: Bob}]
    expect:
      - target: tool_calls
        matcher: {tools_called: {exact: [{name: greet, args: {name: "${who}"}}]}}
"""


def mcptest(tmp_path: Path, env: dict[str, str], *args: str) -> Ran:
    """`mcptest ARGS` in the test's process (support/cli_inproc.py), without provider keys."""
    return cli(*args, cwd=tmp_path, env=env)


def test_eval_and_agent_cases_fill_prompt_response_and_rubric(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    (tmp_path / "sums.jsonl").write_text('{"a": 1, "b": 2, "sum": 3}\n'
                                         '{"a": 2, "b": 2, "sum": 5, "name": "off by one"}\n')
    with JudgeServer() as js:
        env = judge_env(js)
        explained = mcptest(tmp_path, env, "eval", "--explain", "--config", "suite.yml")
        assert explained.returncode == 0, explained.stderr
        assert "sums [case=1]  (sums.jsonl:1)" in explained.stdout
        assert "sums [case=off by one]  (sums.jsonl:2)" in explained.stdout
        assert "total: 2 eval row(s) (2 from case tables)" in explained.stdout
        js.script(JUDGE, Verdict(0.2), rubric="The sum of 2 and 2", candidate="2 + 2 = 5")
        js.script(JUDGE, Verdict(0.9), rubric="The sum of 1 and 2", candidate="1 + 2 = 3")
        js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})), Fault.text("Hi Ada"),
                             ToolCalls(("greet", {"name": "Ada"})), Fault.text("Hi Ada")])
        r = mcptest(tmp_path, env, "run", "suite.yml", "--with-evals", "--no-cache",
                    "--reporter", "json", "--output", "out.json")
        prompts = [m["messages"][-1]["content"] for m in js.requests("gpt-4o")]
    report = json.loads((tmp_path / "out.json").read_text())
    rows = {t["name"]: t for t in report["tests"]}
    assert rows["sums [case=1]"]["status"] == "passed"
    assert rows["sums [case=off by one]"]["status"] == "failed"
    assert rows["greets [case=1]"]["status"] == "passed"
    bob = rows["greets [case=2]"]
    assert bob["status"] == "failed" and bob["cell"] == {"case": "2"}
    assert '✗ 1. greet {"name": "Bob"}' in bob["assertions"][0]["message"]
    assert "Greet Bob." in prompts[2]
    assert r.returncode == 1
