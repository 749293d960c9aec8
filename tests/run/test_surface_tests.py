"""`resources:`, `prompts:` and `lists:` tests run as a user runs them: the CLI against the example
server (one resource, one template, one prompt) and server-everything, every matcher and the
reporters on their rows (docs/suites.md, "Resources, prompts and lists")."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD
from support.servers import everything_command

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def run(tmp_path: Path, body: str, *extra: str) -> tuple[int, dict, str]:
    path = tmp_path / "s.yml"
    path.write_text(body, encoding="utf-8")
    out = tmp_path / "run.json"
    # in this process, with the environment its subprocess got: the report is the point
    done = cli("run", path, "--reporter", "json", "--output", out, *extra, inherit=False,
               env=dict(os.environ))
    return done.returncode, json.loads(out.read_text(encoding="utf-8")), done.stderr


EXAMPLE = HEAD + """tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: Ada}
    expect: [{target: "result.content[0].text", matcher: {contains: Ada}}]
resources:
  - name: catalog
    server: ex
    uri: catalog://services
    expect:
      - {target: "result.contents[0].mimeType", matcher: {exact: application/json}}
      - {target: "result.contents[0].text", matcher: {regex: "^\\\\["}}
  - name: one service
    server: ex
    template: "catalog://services/{service_id}"
    args: {service_id: nope}
    expect:
      - {target: "result.contents[0].text", matcher: {exact: "{}"}}
  - name: wrong mime
    server: ex
    uri: catalog://services
    tags: [wrong]
    expect:
      - {target: "result.contents[0].mimeType", matcher: {exact: text/plain}}
prompts:
  - name: summary prompt
    server: ex
    prompt: incident_summary
    args: {service: billing, severity: high}
    expect:
      - {target: "result.messages[0].role", matcher: {exact: user}}
      - {target: "result.messages[0].content.text", matcher: {contains: "billing service"}}
lists:
  - name: tools listed
    server: ex
    list: tools
    expect:
      - {target: result.tools, matcher: {contains: {name: greet}}}
  - name: prompts listed
    server: ex
    list: prompts
    expect:
      - {target: "result.prompts[0].name", matcher: {exact: incident_summary}}
"""


def test_resource_prompt_and_list_tests_run_on_the_example_server(tmp_path: Path) -> None:
    code, report, stderr = run(tmp_path, EXAMPLE)
    rows = {t["name"]: t for t in report["tests"]}
    assert code == 1, stderr  # `wrong mime` fails on purpose
    assert [t["kind"] for t in report["tests"]] == [
        "tool", "resource", "resource", "resource", "prompt", "list", "list"]
    for name in ("greets", "catalog", "one service", "summary prompt", "tools listed",
                 "prompts listed"):
        assert rows[name]["status"] == "passed", (name, rows[name])
    wrong = rows["wrong mime"]
    assert wrong["status"] == "failed" and wrong["gap"] == "shape"
    assert wrong["assertions"][0]["actual"] == "application/json"
    assert rows["one service"]["tool"] == "catalog://services/{service_id}"
    assert rows["one service"]["args"] == {"service_id": "nope"}
    assert rows["summary prompt"]["tool"] == "incident_summary"
    assert rows["tools listed"]["tool"] == "tools/list"
    code, report, _ = run(tmp_path, EXAMPLE, "--skip-tag", "wrong")
    assert code == 0 and report["summary"]["counts"]["passed"] == 6


def test_resource_tests_on_server_everything(tmp_path: Path) -> None:
    command = json.dumps(everything_command())
    code, report, stderr = run(tmp_path, f"""servers:
  every:
    command: {command}
resources:
  - name: a static resource
    server: every
    uri: "demo://resource/static/document/architecture.md"
    expect:
      - {{target: "result.contents[0].text", matcher: {{regex: "(?i)architecture"}}}}
lists:
  - name: prompts
    server: every
    list: prompts
    expect:
      - {{target: result.prompts, matcher: {{schema: {{type: array, minItems: 1}}}}}}
""")
    assert code == 0, (stderr, [(t["name"], t["message"]) for t in report["tests"]])


def test_a_judge_grades_a_prompt_like_a_tool_answer(tmp_path: Path) -> None:
    import os

    from support.judge_server import JudgeServer, Verdict

    body = HEAD + """prompts:
  - name: judged prompt
    server: ex
    prompt: incident_summary
    args: {service: billing}
    expect:
      - target: "result.messages[0].content.text"
        matcher: {llm-judge: {rubric: "Asks for an incident summary", model: judge-m}}
"""
    path = tmp_path / "s.yml"
    path.write_text(body, encoding="utf-8")
    with JudgeServer() as js:
        js.script("judge-m", Verdict(0.95, reason="it asks for a summary"))
        done = cli("run", path, "--no-cache", "--reporter", "json", inherit=False,
                   env={**os.environ, **js.gateway_env()})
        sent = js.requests("judge-m")
    report = json.loads(done.stdout)
    row = report["tests"][0]
    assert done.returncode == 0 and row["status"] == "passed", (done.stderr, row)
    assert row["assertions"][0]["judge"]["score"] == 0.95
    assert "billing service" in json.dumps(sent[0]["messages"])  # the prompt text was judged


def test_tool_description_quality_grades_each_tool_and_weighs_the_weakest(tmp_path: Path) -> None:
    """0.6 × mean + 0.4 × weakest over every tool of the example server's tools/list."""
    import os

    from support.judge_server import JudgeServer, Verdict

    body = HEAD + """judge: {model: judge-m}
lists:
  - name: descriptions
    server: ex
    list: tools
    expect:
      - target: result.tools
        matcher: {eval.rubric: {preset: tool-description-quality, threshold: 0.7}}
"""
    path = tmp_path / "s.yml"
    path.write_text(body, encoding="utf-8")
    with JudgeServer() as js:
        js.script("judge-m", Verdict(0.9))
        js.script("judge-m", Verdict(0.2, reason="says nothing of its effect"),
                  candidate="Tool name: crash\n")
        done = cli("run", path, "--no-cache", "--reporter", "json", inherit=False,
                   env={**os.environ, **js.gateway_env()})
        asked = {json.dumps(b["messages"]).split("Tool name: ")[1].split("\\n")[0]
                 for b in js.requests("judge-m")}
    report = json.loads(done.stdout)
    a = report["tests"][0]["assertions"][0]
    tools = [c["name"] for c in a["judge"]["criteria"]]
    assert asked == set(tools) and "crash" in tools and len(tools) >= 5
    expected = 0.6 * (0.9 * (len(tools) - 1) + 0.2) / len(tools) + 0.4 * 0.2
    assert a["judge"]["score"] == pytest.approx(expected)
    assert a["status"] == "failed" and "weakest 0.20: `crash`" in a["message"]
    assert done.returncode == 1 and report["tests"][0]["gap"] == "judgment"
    # 6 criteria per tool, one question each, as the header's projection says for one tool
    assert report["summary"]["judge_calls"] == 6 * len(tools)
