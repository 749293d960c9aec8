"""A traced run (docs/tracing.md): with OTEL_EXPORTER_OTLP_ENDPOINT set, `mcptest run` exports
its trace over OTLP/HTTP to a receiver on loopback that decodes it with the OpenTelemetry
protobuf definitions. The span tree runs run → suite → test → MCP client span → the server's own
span (the example server, tracing with the MCP SDK, reads the `traceparent` mcptest put in
`params._meta`), with the judge's and the agent's model calls as GenAI spans under their tests
and each judged verdict a `gen_ai.evaluation.result` event. Every attribute name is one of the
conventions' (or mcptest's own `mcptest.*`), and no secret is in the export. Without the
variable, the OpenTelemetry SDK is not even imported."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_run import KEYLESS, REPO
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict
from support.otlp_receiver import OtlpReceiver, Span

pytestmark = pytest.mark.slow  # the CLI, two traced processes and the loopback judge

TRACING_SERVER = REPO / "tests" / "support" / "tracing_server.py"
TOKEN = "ex-tok-9c8b7a6f5e4d3c2b1a"
CONVENTIONS = {
    # test.* (https://opentelemetry.io/docs/specs/semconv/registry/attributes/test/)
    "test.suite.name", "test.suite.run.status", "test.case.name", "test.case.result.status",
    # MCP client spans (GenAI conventions, docs/gen-ai/mcp.md)
    "mcp.method.name", "mcp.protocol.version", "mcp.session.id", "mcp.resource.uri",
    "jsonrpc.request.id", "gen_ai.operation.name", "gen_ai.tool.name", "gen_ai.prompt.name",
    "network.transport", "error.type", "rpc.response.status_code",
    # GenAI model spans and evaluation events
    "gen_ai.request.model", "gen_ai.usage.input_tokens", "gen_ai.usage.output_tokens",
    "gen_ai.evaluation.name", "gen_ai.evaluation.score.value", "gen_ai.evaluation.score.label",
    "gen_ai.evaluation.explanation",
}
SUITE = """
servers:
  ex:
    command: [{python}, {server}]
    env:
      OTEL_EXPORTER_OTLP_ENDPOINT: {{env: OTEL_EXPORTER_OTLP_ENDPOINT}}
      SERVICE_TOKEN: {{env: EX_TOKEN}}
tools:
  - name: greets
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Hello, Ada!"}}}}
  - name: reads the token
    server: ex
    tool: get_env
    args: {{name: SERVICE_TOKEN}}
    expect:
      - target: "result.content[0].text"
        matcher: {{llm-judge: {{rubric: "Names no secret.", model: judge-m, threshold: 0.5}}}}
agents:
  - name: adds
    models: [gpt-4o]
    servers: [ex]
    prompt: "Add 2 and 3."
    expect: [{{target: final, matcher: {{contains: "5"}}}}]
"""


def _children(spans: list[Span], parent: Span) -> list[Span]:
    return [s for s in spans if s.parent_id == parent.span_id]


def _one(spans: list[Span], name: str, service: str = "mcptest") -> Span:
    found = [s for s in spans if s.name == name and s.service == service]
    assert len(found) == 1, (name, [(s.service, s.name) for s in spans])
    return found[0]


def test_a_run_exports_its_trace_and_the_server_joins_it(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE.format(
        python=json.dumps(sys.executable), server=json.dumps(str(TRACING_SERVER))),
        encoding="utf-8")
    with OtlpReceiver() as otlp, JudgeServer() as js:
        js.script("judge-m", [Verdict(score=0.2, reason=f"it printed {TOKEN}")])
        js.script("gpt-4o", [ToolCalls(("add", {"a": 2, "b": 3})), Fault.text("2 + 3 = 5.")])
        env = {**js.gateway_env(), "PATH": "/usr/bin:/bin", "EX_TOKEN": TOKEN,
               "OTEL_EXPORTER_OTLP_ENDPOINT": otlp.endpoint, "OTEL_SERVICE_NAME": "mcptest"}
        done = subprocess.run([sys.executable, "-m", "mcptest", "run", "suite.yml",
                               "--reporter", "json", "--output", "r.json"],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=240,
                              check=False)
        assert done.returncode == 1, done.stdout + done.stderr
        spans = otlp.spans()
        raw = otlp.raw()

    ours = [s for s in spans if s.service == "mcptest"]
    root = _one(spans, "mcptest run")
    assert root.parent_id == "" and {s.trace_id for s in ours} == {root.trace_id}
    suite = _one(spans, "test suite suite.yml")
    assert suite.parent_id == root.span_id
    assert suite.attributes["test.suite.run.status"] == "failure"
    tests = {s.name: s for s in _children(spans, suite)}
    assert set(tests) == {"test greets", "test reads the token", "test adds"}
    assert tests["test greets"].attributes["test.case.result.status"] == "pass"
    assert tests["test reads the token"].attributes["test.case.result.status"] == "fail"

    # the MCP client span of the test's request, and the server's own span under it
    [call] = [s for s in _children(spans, tests["test greets"]) if s.service == "mcptest"]
    assert call.name == "tools/call greet" and call.kind == 3  # SPAN_KIND_CLIENT
    assert call.attributes["mcp.method.name"] == "tools/call"
    assert call.attributes["gen_ai.tool.name"] == "greet"
    assert call.attributes["gen_ai.operation.name"] == "execute_tool"
    assert call.attributes["network.transport"] == "pipe"
    assert call.attributes["mcp.protocol.version"]
    assert call.attributes["jsonrpc.request.id"].isdigit()
    [served] = _children(spans, call)
    assert served.service == "example-server" and served.kind == 2  # SPAN_KIND_SERVER
    assert served.trace_id == root.trace_id and served.name == "tools/call greet"
    report = json.loads((tmp_path / "r.json").read_text())
    # the traceparent the server read is the one mcptest sent, on the wire (the timeline)
    [judged] = [t for t in report["tests"] if t["name"] == "reads the token"]
    [request] = [s for s in judged["timeline"] if s["kind"] == "request"]
    assert request["body"]["_meta"]["traceparent"].split("-")[1] == root.trace_id

    # the judge's call, a GenAI span under its test, and its verdict as an event
    [chat] = [s for s in _children(spans, tests["test reads the token"])
              if s.name == "chat judge-m"]
    assert chat.attributes["gen_ai.operation.name"] == "chat"
    assert chat.attributes["gen_ai.usage.input_tokens"] > 0
    assert chat.attributes["gen_ai.usage.output_tokens"] > 0
    [(event, fields)] = tests["test reads the token"].events
    assert event == "gen_ai.evaluation.result"
    assert fields["gen_ai.evaluation.score.value"] == pytest.approx(0.2)
    assert fields["gen_ai.evaluation.score.label"] == "fail"
    assert "[REDACTED]" in fields["gen_ai.evaluation.explanation"]

    # the agent: its model turns and its tool call under its test
    agent = {s.name for s in _children(spans, tests["test adds"])}
    assert {"chat gpt-4o", "tools/call add"} <= agent

    names = {k for s in ours for k in s.attributes} | {
        k for s in ours for _, fields in s.events for k in fields}
    assert {n for n in names if not n.startswith("mcptest.")} <= CONVENTIONS
    assert TOKEN.encode() not in raw
    assert js.gateway_env()["MCPTEST_JUDGE_API_KEY"].encode() not in raw


def test_without_the_variable_the_sdk_is_not_imported(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(f"""
servers:
  ex: {{command: [{json.dumps(sys.executable)}, {json.dumps(str(REPO / 'examples/server/example_server.py'))}]}}
tools:
  - {{name: greets, server: ex, tool: greet, args: {{name: Ada}}}}
""", encoding="utf-8")
    code = ("import sys; from mcptest.cli.main import main; rc = main(['run', 'suite.yml']); "
            "print([m for m in sys.modules if m.startswith(('opentelemetry.sdk', "
            "'opentelemetry.exporter', 'mcptest.telemetry.otel'))], rc)")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=dict(KEYLESS),
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.stdout.strip().splitlines()[-1] == "[] 0", done.stdout + done.stderr
