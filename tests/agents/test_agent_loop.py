"""Agent tests: a scripted model drives the real example server through litellm tool calling."""

from __future__ import annotations

from pathlib import Path

import pytest
from evals.conftest import JUDGE, judge_env, judge_requests, run_suite
from support.cli_run import HEAD as SHARED_HEAD
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.agents.tools import function_tools

pytestmark = pytest.mark.slow  # starts real servers or subprocesses



def suite(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "agents.yml"
    p.write_text(f"""
{SHARED_HEAD}agents:
{body}""", encoding="utf-8")
    return p


AGENT = """
  - name: greets and adds
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada, then add 2 and 3."
    max_turns: 5
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: greet}}
      - {target: "tool_calls[0].args.name", matcher: {exact: Ada}}
      - {target: "tool_calls[1].name", matcher: {exact: add}}
      - {target: "tool_calls[1].args", matcher: {exact: {a: 2, b: 3}}}
      - {target: "tool_calls[1].result.structuredContent.result", matcher: {exact: 5}}
      - {target: final, matcher: {contains: "2 + 3 = 5"}}
      - {target: conversation.turns, matcher: {exact: 3}}
      - {target: conversation.tokens.total, matcher: {schema: {type: integer, minimum: 1}}}
      - target: transcript
        matcher:
          eval.rubric:
            threshold: 0.8
            criteria:
              - {name: used the tools, description: "Called greet and add before answering."}
              - {name: correct sum, description: "The final answer states 2 + 3 = 5.",
                 required: true}
      - target: final
        matcher:
          llm-jury:
            rubric: "Friendly and correct."
            jurors: [{model: gpt-4o-mini}, {model: claude-judge}]
      - {target: jury.same_family, matcher: {exact: true}}
"""


def test_agent_calls_two_tools_then_answers(tmp_path: Path, js: JudgeServer) -> None:
    js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})),
                         ToolCalls(("add", {"a": 2, "b": 3})),
                         Fault.text("Hello, Ada! And 2 + 3 = 5.")])
    js.script(JUDGE, Verdict(0.9), rubric="Rubric:")
    js.script("gpt-4o-mini", Verdict(0.9))
    js.script("claude-judge", Verdict(0.8))
    report = run_suite(suite(tmp_path, AGENT), judge_env(js))
    (r,) = report.tests
    assert r.status == "passed", [(a.target, a.status, a.message) for a in r.assertions]
    assert r.kind == "agent" and r.model == "gpt-4o" and r.gap is None
    assert [a.status for a in r.assertions] == ["passed"] * 11
    rubric = r.assertions[8]
    assert rubric.matcher == "eval-rubric" and rubric.judge is not None  # as reports spell it
    assert [c.name for c in rubric.judge.criteria] == ["used the tools", "correct sum"]
    jury = r.assertions[9].judge
    assert jury is not None and jury.jury is not None and jury.jury.same_family
    # what the model saw: the example server's tools with their input schemas
    first = js.requests("gpt-4o")[0]
    names = {t["function"]["name"] for t in first["tools"]}
    assert {"greet", "add", "forecast"} <= names
    greet = next(t for t in first["tools"] if t["function"]["name"] == "greet")
    assert greet["function"]["parameters"]["properties"]["name"]["type"] == "string"
    # the tool results went back as tool messages
    last = js.requests("gpt-4o")[-1]["messages"]
    assert [m["role"] for m in last] == ["user", "assistant", "tool", "assistant", "tool"]
    assert "Hello, Ada!" in last[2]["content"]
    # the rubric graded the whole transcript
    graded = judge_requests(js, JUDGE)[0]["messages"][1]["content"]
    assert "Tool call 1: greet" in graded and "Final answer: Hello, Ada!" in graded
    assert r.response["conversation"]["turns"] == 3
    # 2 rubric criteria + 2 jurors; the agent's own 3 turns are not judge calls
    assert report.summary.projected_judge_calls == report.summary.judge_calls == 4
    assert js.count("gpt-4o") == 3


def test_model_that_keeps_calling_tools_stops_at_max_turns(tmp_path: Path,
                                                           js: JudgeServer) -> None:
    js.script("looper", ToolCalls(("greet", {"name": "again"})))
    body = """
  - name: loops
    models: [looper, other-model]
    servers: [ex]
    prompt: "Greet forever."
    max_turns: 3
    expect:
      - {target: "tool_calls[0].name", matcher: {exact: greet}}
"""
    js.script("other-model", Fault.text("Done, no tools needed."))
    report = run_suite(suite(tmp_path, body), judge_env(js))
    rows = {t.name: t for t in report.tests}
    assert set(rows) == {"loops [model=looper]", "loops [model=other-model]"}
    looped = rows["loops [model=looper]"]
    assert looped.status == "failed" and looped.gap == "shape"
    assert looped.message == ("stopped at max_turns=3: the model was still calling tools and "
                              "gave no final answer")
    assert looped.response["conversation"]["stop"] == "max_turns"
    assert len(looped.response["tool_calls"]) == 3 and "final" not in looped.response
    assert js.count("looper") == 3
    other = rows["loops [model=other-model]"]
    assert other.status == "failed" and other.cell == {"model": "other-model"}
    assert "tool_calls" in (other.assertions[0].message or "")


def test_bad_tool_calls_are_answered_not_sent(tmp_path: Path, js: JudgeServer) -> None:
    js.script("clumsy", [ToolCalls(("no_such_tool", {}), ("greet", "{not json")),
                         Fault.text("sorry")])
    body = """
  - name: clumsy
    models: [clumsy]
    servers: [ex]
    prompt: "Try."
    expect:
      - {target: "tool_calls[0].error", matcher: {contains: "unknown tool"}}
      - {target: "tool_calls[1].error", matcher: {contains: "not valid JSON"}}
      - {target: final, matcher: {exact: sorry}}
"""
    (r,) = run_suite(suite(tmp_path, body), judge_env(js)).tests
    assert r.status == "passed", [(a.target, a.message) for a in r.assertions]


def test_unroutable_agent_model_defers_without_starting_servers(tmp_path: Path) -> None:
    body = """
  - name: nobody
    models: [gpt-4o]
    servers: [ex]
    prompt: "Hi"
"""
    report = run_suite(suite(tmp_path, body), {"PATH": "/usr/bin:/bin"})
    (r,) = report.tests
    assert r.status == "deferred" and "OPENAI_API_KEY" in (r.message or "")
    assert report.servers == []


def test_colliding_tool_names_get_server_prefixes() -> None:
    tools, routes = function_tools({
        "a": [{"name": "search", "inputSchema": {"type": "object", "$schema": "x"}}],
        "b": [{"name": "search"}, {"name": "odd.name"}]})
    names = [t["function"]["name"] for t in tools]
    assert names == ["a__search", "b__search", "odd_name"]
    assert routes["b__search"].server == "b" and routes["odd_name"].tool == "odd.name"
    assert "$schema" not in tools[0]["function"]["parameters"]


def test_agent_timeout_stops_the_run_with_what_it_had(tmp_path: Path, js: JudgeServer) -> None:
    js.script("patient", [ToolCalls(("greet", {"name": "Ada"})),
                          ToolCalls(("slow", {"seconds": 5})), Fault.text("done")])
    body = """
  - name: too slow
    models: [patient]
    servers: [ex]
    prompt: "Greet, then wait."
    timeout: 1s
"""
    (r,) = run_suite(suite(tmp_path, body), judge_env(js)).tests
    assert r.status == "error" and r.gap == "transport"
    assert r.message == "the agent run took longer than its timeout (1s)"
    assert [c["name"] for c in r.response["tool_calls"]] == ["greet"]
    assert r.response["conversation"]["stop"] == "timeout"
