"""The client side of the protocol, run as a user runs it (the CLI, real servers): declared
capabilities, scripted elicitation, sampling and roots answers in both eras, what the server
asked and notified as targets, and the tampered-`requestState` check
(docs/suites.md#the-client-side).

Servers: npm server-everything (handshake era, pushes its requests, hides six tools from a
client that declares nothing), the loopback `client_server.py` (the SDK's MCPServer: asks
through `InputRequiredResult` on 2026-07-28, pushes on the handshake) and `careless_server.py`
(2026-07-28, trusts any `requestState`).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli_run import run_json
from support.judge_server import Fault, JudgeServer
from support.servers import (
    CARELESS_SERVER,
    CLIENT_SERVER,
    TASK_SERVER,
    everything_command,
    free_port,
)

pytestmark = pytest.mark.slow  # starts real servers

PY = json.dumps(sys.executable)
ASKING = json.dumps(str(CLIENT_SERVER))
CARELESS = json.dumps(str(CARELESS_SERVER))
GATED = ["get-roots-list", "trigger-elicitation-request", "trigger-sampling-request",
         "trigger-url-elicitation"]


def rows(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in report["tests"]}


def failures(row: dict[str, Any]) -> list[str]:
    return [f"{a['target']}: {a.get('message')}" for a in row.get("assertions", [])
            if a["status"] != "passed"]


def test_server_everything_shows_its_client_tools_and_they_pass_with_scripted_answers(
        tmp_path: Path) -> None:
    command = json.dumps(everything_command())
    suite = tmp_path / "everything.yml"
    suite.write_text(f"""servers:
  bare:
    command: {command}
  everything:
    command: {command}
    client:
      roots: [{{uri: "file:///srv/project", name: project}}]
      elicitation:
        - match: {{mode: url}}
          action: decline
        - match: {{message: "(?i)provide inputs"}}
          action: accept
          content: {{name: Ada Lovelace, check: true, email: ada@example.com}}
      sampling:
        - match: {{text: "weather"}}
          text: "Sunny all week."
lists:
  - name: a client that declares nothing is shown none of them
    server: bare
    list: tools
    expect:
      - {{target: result.tools, matcher: {{not: {{contains: {{name: trigger-sampling-request}}}}}}}}
      - {{target: result.tools, matcher: {{not: {{contains: {{name: get-roots-list}}}}}}}}
  - name: a client that declares them is shown all of them
    server: everything
    list: tools
    expect:
{"".join(f'''      - {{target: result.tools, matcher: {{contains: {{name: {name}}}}}}}
''' for name in GATED)}tools:
  - name: roots
    server: everything
    tool: get-roots-list
    expect:
      - {{target: "result.content[0].text", matcher: {{contains: "file:///srv/project"}}}}
      - {{target: client.roots_requests, matcher: {{schema: {{minimum: 1}}}}}}
  - name: form elicitation accepted
    server: everything
    tool: trigger-elicitation-request
    expect:
      - {{target: "result.content[1].text", matcher: {{contains: "Name: Ada Lovelace"}}}}
      - {{target: "client.elicitations[0].via", matcher: {{exact: push}}}}
      - {{target: "client.elicitations[0].requestedSchema.required", matcher: {{exact: [name]}}}}
      - {{target: "client.elicitations[0].response.content.email", matcher: {{exact: ada@example.com}}}}
  - name: form elicitation declined by this test's own answer
    server: everything
    tool: trigger-elicitation-request
    client: {{elicitation: [{{action: decline}}]}}
    expect:
      - {{target: "result.content[0].text", matcher: {{contains: declined}}}}
  - name: form elicitation cancelled
    server: everything
    tool: trigger-elicitation-request
    client: {{elicitation: [{{action: cancel}}]}}
    expect:
      - {{target: "result.content[0].text", matcher: {{contains: cancelled}}}}
  - name: url elicitation declined
    server: everything
    tool: trigger-url-elicitation
    args: {{url: "https://example.com/connect"}}
    expect:
      - {{target: "client.elicitations[0].mode", matcher: {{exact: url}}}}
      - {{target: "client.elicitations[0].response.action", matcher: {{exact: decline}}}}
  - name: sampling scripted
    server: everything
    tool: trigger-sampling-request
    args: {{prompt: "what is the weather?"}}
    expect:
      - {{target: "result.content[0].text", matcher: {{contains: "Sunny all week."}}}}
      - {{target: "client.sampling[0].systemPrompt", matcher: {{exact: "You are a helpful test server."}}}}
      - {{target: "client.sampling[0].response.model", matcher: {{exact: mcptest-scripted}}}}
  - name: progress is reported
    server: everything
    tool: trigger-long-running-operation
    args: {{duration: 0.2, steps: 2}}
    expect:
      - {{target: "notifications.progress[-1].progress", matcher: {{exact: 2}}}}
      - {{target: "notifications.progress[-1].total", matcher: {{exact: 2}}}}
  - name: unscripted sampling fails the test
    server: everything
    tool: trigger-sampling-request
    args: {{prompt: "tell me a joke"}}
""", encoding="utf-8")
    done, report = run_json(suite)
    got = rows(report)
    assert done.returncode == 1, done.stdout + done.stderr
    for name, row in got.items():
        if name != "unscripted sampling fails the test":
            assert row["status"] == "passed", (name, row.get("message"), failures(row))
    unscripted = got["unscripted sampling fails the test"]
    assert unscripted["status"] == "failed"
    assert "no `client.sampling` answer matches" in unscripted["message"]
    assert "tell me a joke" in unscripted["message"]
    assert unscripted["response"]["client"]["sampling"][0]["response"] is None


def test_both_eras_get_the_same_answers_and_record_how_they_asked(tmp_path: Path) -> None:
    suite = tmp_path / "eras.yml"
    suite.write_text(f"""servers:
  modern: &server
    command: [{PY}, {ASKING}]
    protocol: "2026-07-28"
    client:
      log_level: info
      roots: [{{path: data, name: data}}]
      elicitation:
        - match: {{message: table}}
          action: accept
          content: {{name: Ada, party: 4}}
      sampling:
        - match: {{system: summarize}}
          text: "Short."
  legacy:
    <<: *server
    protocol: legacy
tools:
  - &book
    name: book modern
    server: modern
    tool: book_table
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Booked for Ada, party of 4."}}}}
      - {{target: "client.elicitations[0].via", matcher: {{exact: input_required}}}}
      - {{target: "client.elicitations[0].message", matcher: {{contains: table}}}}
  - <<: *book
    name: book legacy
    server: legacy
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Booked for Ada, party of 4."}}}}
      - {{target: "client.elicitations[0].via", matcher: {{exact: push}}}}
  - &decline
    name: declined modern
    server: modern
    tool: book_table
    client: {{elicitation: [{{action: decline}}]}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "No booking (decline)."}}}}]
  - {{<<: *decline, name: declined legacy, server: legacy}}
  - &defaults
    name: accepted with the schema's defaults modern
    server: modern
    tool: book_table
    client: {{elicitation: [{{action: accept}}]}}
  - {{<<: *defaults, name: accepted with the schema's defaults legacy, server: legacy}}
  - &summary
    name: sampled modern
    server: modern
    tool: summarize
    args: {{text: a long story}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Summary by mcptest-scripted: Short."}}}}
      - {{target: "client.sampling[0].messages[0].content.text", matcher: {{contains: a long story}}}}
  - {{<<: *summary, name: sampled legacy, server: legacy}}
  - &roots
    name: roots modern
    server: modern
    tool: workspace
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "data {(tmp_path / 'data').resolve().as_uri()}"}}}}
      - {{target: client.roots_requests, matcher: {{exact: 1}}}}
  - {{<<: *roots, name: roots legacy, server: legacy}}
  - &caps
    name: capabilities modern
    server: modern
    tool: capabilities
    expect:
      - target: "result.content[0].text"
        matcher: {{exact: '{{"sampling":{{}},"elicitation":{{"form":{{}},"url":{{}}}},"roots":{{"listChanged":true}}}}'}}
  - {{<<: *caps, name: capabilities legacy, server: legacy}}
  - &none
    name: a test declaring nothing gets a connection of its own modern
    server: modern
    tool: capabilities
    client: {{capabilities: []}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "{{}}"}}}}]
  - {{<<: *none, name: a test declaring nothing gets a connection of its own legacy, server: legacy}}
  - &chatty
    name: notifications modern
    server: modern
    tool: chatty
    expect:
      - {{target: "notifications.log[0].data", matcher: {{contains: chatty}}}}
      - {{target: "notifications.log[0].level", matcher: {{exact: info}}}}
      - {{target: "notifications.progress[0].message", matcher: {{exact: half way}}}}
      - {{target: "notifications.progress[1].progress", matcher: {{exact: 2}}}}
  - {{<<: *chatty, name: notifications legacy, server: legacy}}
  - &tamper
    name: tampered state is rejected modern
    server: modern
    tool: book_table
    client: {{request_state: tampered}}
  - {{<<: *tamper, name: tampered state on a handshake server cannot be checked, server: legacy}}
  - &unfit
    name: content that does not fit the schema modern
    server: modern
    tool: book_table
    client: {{elicitation: [{{action: accept, content: {{name: Ada, party: 99}}}}]}}
  - {{<<: *unfit, name: content that does not fit the schema legacy, server: legacy}}
prompts:
  - &greeting
    name: a prompt asks too modern
    server: modern
    prompt: greeting
    client: {{elicitation: [{{action: accept, content: {{name: Grace}}}}]}}
    expect:
      - {{target: "result.messages[0].content.text", matcher: {{exact: "Hello, Grace!"}}}}
  - {{<<: *greeting, name: a prompt asks too legacy, server: legacy}}
  - name: a prompt's tampered state is rejected
    server: modern
    prompt: greeting
    client: {{request_state: tampered, elicitation: [{{action: accept, content: {{name: Eve}}}}]}}
""", encoding="utf-8")
    (tmp_path / "data").mkdir()
    done, report = run_json(suite)
    got = rows(report)
    bad = {"tampered state on a handshake server cannot be checked",
           *(f"{what} {era}" for era in ("modern", "legacy") for what in (
               "content that does not fit the schema", "accepted with the schema's defaults"))}
    for name, row in got.items():
        if name not in bad:
            assert row["status"] == "passed", (name, row.get("message"), failures(row))
    assert done.returncode == 1
    for era in ("modern", "legacy"):
        # no content: the schema's defaults are the answer; `party` has one, `name` has none,
        # so the answer does not fit and is never sent
        defaults = got[f"accepted with the schema's defaults {era}"]
        assert defaults["status"] == "failed", defaults
        assert "'name' is a required property" in defaults["message"]
    tamper = got["tampered state is rejected modern"]["response"]
    assert tamper["error"]["code"] == -32602
    cannot = got["tampered state on a handshake server cannot be checked"]
    assert cannot["status"] == "error"
    assert "never answered with an InputRequiredResult" in cannot["message"]
    assert got["a prompt asks too modern"]["response"]["client"]["elicitations"][0]["via"] == (
        "input_required")
    assert got["a prompt asks too legacy"]["response"]["client"]["elicitations"][0]["via"] == (
        "push")
    for era in ("modern", "legacy"):
        unfit = got[f"content that does not fit the schema {era}"]
        assert unfit["status"] == "failed", unfit
        assert "does not fit the requested schema (party:" in unfit["message"]
        assert unfit["response"]["client"]["elicitations"][0]["response"] is None


def test_a_server_that_accepts_a_tampered_state_fails_the_check(tmp_path: Path) -> None:
    suite = tmp_path / "careless.yml"
    suite.write_text(f"""servers:
  careless:
    command: [{PY}, {CARELESS}]
    client: {{elicitation: [{{action: accept, content: {{name: Ada}}}}]}}
tools:
  - name: greets whoever answers
    server: careless
    tool: greet
    expect: [{{target: "result.content[0].text", matcher: {{exact: "Hello, Ada (state asked-for-name-0001)"}}}}]
  - name: tampered
    server: careless
    tool: greet
    client: {{request_state: tampered}}
""", encoding="utf-8")
    done, report = run_json(suite)
    got = rows(report)
    assert got["greets whoever answers"]["status"] == "passed", failures(
        got["greets whoever answers"])
    tampered = got["tampered"]
    assert tampered["status"] == "failed"
    assert tampered["gap"] == "protocol"
    assert tampered["message"].startswith("the server accepted a tampered requestState")
    # the state went back altered in its middle character, and the server used it anyway
    assert tampered["response"]["result"]["content"][0]["text"] == (
        "Hello, Ada (state asked-forAname-0001)")
    assert done.returncode == 1


def test_sampling_by_a_model_goes_through_the_model_client(tmp_path: Path) -> None:
    """A `model:` answer is asked like an agent model: routed to the loopback provider, its
    reply sent back to the server, its cost in the run's spend (and bounded by --max-cost)."""
    suite = tmp_path / "model.yml"
    suite.write_text(f"""servers:
  modern:
    command: [{PY}, {ASKING}]
    protocol: "2026-07-28"
    client:
      sampling: [{{model: summarizer}}]
judge:
  pricing: {{summarizer: {{input: 1.0, output: 2.0}}}}
tools:
  - name: sampled by a model
    server: modern
    tool: summarize
    args: {{text: a long story about bees}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Summary by summarizer: Bees, briefly."}}}}
      - {{target: "client.sampling[0].response.model", matcher: {{exact: summarizer}}}}
""", encoding="utf-8")
    with JudgeServer() as js:
        js.script("summarizer", Fault.text("Bees, briefly."))
        done, report = run_json(suite, "--max-cost", "1", env=js.gateway_env())
        sent = js.requests("summarizer")
    (row,) = report["tests"]
    assert row["status"] == "passed", (row.get("message"), failures(row))
    assert done.returncode == 0
    (request,) = sent
    assert request["messages"][0] == {"role": "system", "content": "You summarize."}
    assert "a long story about bees" in request["messages"][1]["content"]
    assert request["max_tokens"] == 50
    assert report["summary"]["cost_usd"] > 0  # in the run's spend, as an agent's turns are
    assert report["summary"]["judge_calls"] == 0


def test_streamable_http_servers_ask_and_create_tasks_the_same_way(tmp_path: Path) -> None:
    """Over Streamable HTTP (2026-07-28, per-request capabilities and routing headers): the
    input rounds, the tampered-state check and a task polled and cancelled."""
    asking, jobs = free_port(), free_port()
    suite = tmp_path / "http.yml"
    suite.write_text(f"""servers:
  web:
    url: http://127.0.0.1:{asking}/mcp
    start: {{command: [{PY}, {ASKING}, --port, "{asking}"]}}
    client:
      elicitation: [{{action: accept, content: {{name: Ada, party: 3}}}}]
      sampling: [{{text: "Fine."}}]
  jobs:
    url: http://127.0.0.1:{jobs}/mcp
    start: {{command: [{PY}, {json.dumps(str(TASK_SERVER))}, --port, "{jobs}"]}}
    client: {{capabilities: [tasks]}}
tools:
  - name: booked over http
    server: web
    tool: book_table
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Booked for Ada, party of 3."}}}}
      - {{target: "client.elicitations[0].via", matcher: {{exact: input_required}}}}
  - name: sampled over http
    server: web
    tool: summarize
    args: {{text: x}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "Summary by mcptest-scripted: Fine."}}}}]
  - name: tampered over http
    server: web
    tool: book_table
    client: {{request_state: tampered}}
    expect: [{{target: error.code, matcher: {{exact: -32602}}}}]
  - name: a task over http
    server: jobs
    tool: report
    args: {{topic: owls}}
    expect:
      - {{target: task.status, matcher: {{exact: completed}}}}
      - {{target: "result.content[0].text", matcher: {{exact: report for owls is ready}}}}
  - name: a cancelled task over http
    server: jobs
    tool: forever
    task: {{cancel: true}}
    expect: [{{target: task.status, matcher: {{exact: cancelled}}}}]
""", encoding="utf-8")
    done, report = run_json(suite)
    for row in report["tests"]:
        assert row["status"] == "passed", (row["name"], row.get("message"), failures(row))
    assert len(report["tests"]) == 5
    assert done.returncode == 0
