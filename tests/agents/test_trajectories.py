"""Agent trajectories (docs/agents.md#trajectories), `similar`, and an agent's cost targets, through
the CLI: a scripted model calls the example server's tools in a known order."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from evals.conftest import judge_env
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD as SHARED_HEAD
from support.judge_server import Fault, JudgeServer, ToolCalls

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

HEAD = """judge:
  pricing: {gpt-4o: {input: 1000000, output: 1000000}}
""" + SHARED_HEAD + "agents:\n"
PASSING = """
  - name: plans well
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada, then add 2 and 3."
    expect:
      - target: tool_calls
        matcher:
          tools_called:
            exact: [greet, add]
            in_order: [{name: greet, args: {name: {regex: "(?i)^ada$"}}}, add]
            contains: [{name: add, args: {a: 2}}]
            not_contains: [forecast, {name: greet, args: {name: Bob}}]
            count: {min: 2, max: 2, per_tool: {add: {max: 1}, forecast: {max: 0}}}
      - {target: final, matcher: {similar: {to: "hello ada, 2 + 3 = 5", threshold: 0.9}}}
      - {target: final, matcher: {not: {similar: {to: "I cannot help", method: ratio}}}}
      - {target: conversation.tokens.total, matcher: {schema: {minimum: 1, maximum: 100000}}}
      - {target: conversation.cost_usd, matcher: {schema: {exclusiveMinimum: 0, maximum: 1000}}}
      - {target: duration_ms, matcher: {schema: {minimum: 0}}}
"""
FAILING = """
  - name: plans badly
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada, then add 2 and 3."
    expect:
      - target: tool_calls
        matcher:
          tools_called:
            in_order: [add, {name: greet, args: {name: {regex: "(?i)oslo"}}}]
            count: {per_tool: {greet: {max: 0}}}
      - {target: final, matcher: {similar: {to: "The forecast for Oslo is rain", threshold: 0.8}}}
"""


def script(js: JudgeServer) -> None:
    js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})),
                         ToolCalls(("add", {"a": 2, "b": 3})),
                         Fault.text("Hello, Ada! 2 + 3 = 5.")])


def run(tmp_path: Path, body: str, js: JudgeServer) -> tuple[Ran, dict]:
    """`mcptest run` in the test's process (support/cli_inproc.py) with the environment a
    subprocess was given: what the run writes is the point, not the process."""
    (tmp_path / "agents.yml").write_text(HEAD + body, encoding="utf-8")
    r = cli("run", "agents.yml", "--reporter", "json", "--output", "out.json", "--reporter",
            "pretty", cwd=tmp_path, inherit=False, env={**os.environ, **judge_env(js)})
    return r, json.loads((tmp_path / "out.json").read_text())


def test_a_trajectory_that_holds_passes_every_check(tmp_path: Path) -> None:
    with JudgeServer() as js:
        script(js)
        r, report = run(tmp_path, PASSING, js)
    (row,) = report["tests"]
    assert row["status"] == "passed", [(a["target"], a["message"]) for a in row["assertions"]]
    assert r.returncode == 0
    assert [a["matcher"] for a in row["assertions"]] == [
        "tools-called", "similar", "not", "schema", "schema", "schema"]  # the one spelling
    assert row["response"]["conversation"]["cost_usd"] > 0


def test_a_diverging_trajectory_shows_expected_and_actual_aligned(tmp_path: Path) -> None:
    with JudgeServer() as js:
        script(js)
        r, report = run(tmp_path, FAILING, js)
    assert r.returncode == 1
    calls, similar = report["tests"][0]["assertions"]
    assert calls["status"] == "failed"
    w = 40
    oslo = 'greet {"name": {"regex": "(?i)oslo"}}'
    assert calls["message"].splitlines() == [
        "in_order: expected these calls in this order",
        f"    {'expected':<{w}} │ actual",
        f"  ✓ {'add':<{w}} │ 2. add {{\"a\": 2, \"b\": 3}}",
        f"  ✗ {oslo:<{w}} │ (none after call 2)",
        "`greet`: 1 call(s), expected at most 0",
        'actual sequence: greet {"name": "Ada"}, add {"a": 2, "b": 3}',
    ]
    assert similar["status"] == "failed"
    assert similar["message"].startswith("similarity 0.") and "is below 0.8" in similar["message"]
    assert "(none after call 2)" in r.stdout  # the pretty report shows the table


def test_tools_called_needs_a_check_and_valid_argument_matchers(tmp_path: Path) -> None:
    body = """
  - name: empty
    models: [gpt-4o]
    servers: [ex]
    prompt: x
    expect:
      - {target: tool_calls, matcher: {tools_called: {}}}
      - {target: tool_calls, matcher: {tools_called: {contains: [{name: a, args: {q: {regex: "("}}}]}}}
"""
    (tmp_path / "agents.yml").write_text(HEAD + body, encoding="utf-8")
    r = cli("validate", "agents.yml", cwd=tmp_path, inherit=False, env=dict(os.environ))
    assert r.returncode == 2
    lines = r.stderr.splitlines()
    assert lines[0].startswith("agents.yml:13:")
    assert "give at least one of contains, exact, in_order, not_contains, count" in lines[0]
    assert lines[1].startswith("agents.yml:14:") and "regex does not compile" in lines[1]
