"""The cascade on tool tests: deterministic → structural → judges, and custom judges."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from evals.conftest import JUDGE, judge_env, row, run_suite
from support.cli_run import HEAD
from support.judge_server import JudgeServer, Verdict

from mcptest.evals.custom import normalise
from mcptest.grade.structural import structural_problem

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

JUDGED = "{target: \"result.content[0].text\", matcher: {llm-judge: {rubric: \"Is fine.\"}}}"


def write(tmp_path: Path, tools: str) -> Path:
    p = tmp_path / "cascade.yml"
    p.write_text(f"""
{HEAD}tools:
{tools}""", encoding="utf-8")  # the shared example server: the tiers are the point
    return p


def test_later_tiers_run_only_when_earlier_ones_passed(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(0.9))
    suite = write(tmp_path, f"""
  - name: shape fails first
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "nope"}}}}
      - {JUDGED}
  - name: breaks its output schema
    server: ex
    tool: bad_structured
    args: {{city: Oslo}}
    expect: [{JUDGED}]
  - name: tool error
    server: ex
    tool: divide
    args: {{a: 1, b: 0}}
    expect: [{JUDGED}]
  - name: all tiers pass
    server: ex
    tool: forecast
    args: {{city: Oslo}}
    expect:
      - {{target: result.structuredContent.city, matcher: {{exact: Oslo}}}}
      - {JUDGED}
""")
    report = run_suite(suite, judge_env(js), tools=True, evals=False)
    shape = row(report, "shape fails first")
    assert [a.status for a in shape.assertions] == ["failed", "skipped"] and shape.gap == "shape"
    schema = row(report, "breaks its output schema")
    assert schema.status == "failed" and schema.gap == "shape"
    assert schema.assertions[0].message.startswith(  # type: ignore[union-attr]
        "structural tier: structuredContent does not conform to the tool's outputSchema at ")
    err = row(report, "tool error")
    assert err.status == "failed" and err.gap == "tool-error"
    assert "isError: true" in (err.assertions[0].message or "")
    ok = row(report, "all tiers pass")
    assert ok.status == "passed" and ok.assertions[1].judge is not None
    assert js.count(JUDGE) == 1  # only the test whose first two tiers passed reached a judge


def test_structural_problems() -> None:
    assert structural_problem({"error": {"code": -32602, "message": "bad"}}, None) == (
        "the tool answered with JSON-RPC error -32602: bad")
    schema = {"outputSchema": {"type": "object", "required": ["t"]}}
    assert "no structuredContent" in (structural_problem({"result": {"content": []}}, schema)
                                      or "")
    assert structural_problem({"result": {"content": [], "structuredContent": {"t": 1}}},
                              schema) is None
    assert structural_problem({"result": {"content": []}}, None) is None


JUDGE_PY = '''
def judge(ctx):
    ok = "Hello, Ada!" in ctx["candidate"]
    return {"verdict": "pass" if ok else "fail", "score": 0.8 if ok else 0.1,
            "reasoning": "greeting for " + ctx["input"]["name"], "cost_usd": 0.002}


async def async_judge(ctx):
    return 0.4
'''

JUDGE_CMD = '''
import json, sys
doc = json.load(sys.stdin)
print("log line first")
print(json.dumps({"verdict": "fail", "score": 0.25, "cost_usd": 0.001,
                  "reasoning": "rubric was " + doc["criteria"] + "; saw " + doc["output"]}))
'''


def test_custom_judges_python_and_command(tmp_path: Path, js: JudgeServer) -> None:
    (tmp_path / "myjudges.py").write_text(JUDGE_PY, encoding="utf-8")
    (tmp_path / "cmd_judge.py").write_text(JUDGE_CMD, encoding="utf-8")
    py = json.dumps(sys.executable)
    suite = write(tmp_path, f"""
  - name: python judge
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - {{target: "result.content[0].text", matcher: {{custom-judge: {{python: "myjudges:judge"}}}}}}
      - target: "result.content[0].text"
        matcher: {{custom-judge: {{python: "myjudges:async_judge", threshold: 0.3}}}}
  - name: command judge
    server: ex
    tool: greet
    args: {{name: Bob}}
    expect:
      - target: "result.content[0].text"
        matcher: {{custom-judge: {{command: [{py}, cmd_judge.py], rubric: "greets Bob"}}}}
  - name: broken judge
    server: ex
    tool: greet
    args: {{name: Eve}}
    expect:
      - {{target: "result.content[0].text", matcher: {{custom-judge: {{command: [{py}, "-c", "import sys; sys.exit(2)"]}}}}}}
""")
    report = run_suite(suite, judge_env(js), tools=True, evals=False)
    good = row(report, "python judge")
    assert good.status == "passed", [a.message for a in good.assertions]
    first = good.assertions[0]
    assert first.cost_usd == pytest.approx(0.002) and first.judge is not None
    assert first.judge.kind == "custom" and first.judge.votes[0].reason == "greeting for Ada"
    assert first.judge.votes[0].model == "python:myjudges:judge"
    assert good.assertions[1].judge.score == 0.4  # type: ignore[union-attr]
    bad = row(report, "command judge")
    assert bad.status == "failed" and bad.gap == "judgment"
    assert bad.assertions[0].message == (
        "command:" + sys.executable + " cmd_judge.py: fail (score 0.25): rubric was greets Bob; "
        "saw Hello, Bob!")
    broken = row(report, "broken judge")
    assert broken.status == "error" and broken.gap == "judge-reliability"
    assert "exited with 2" in (broken.assertions[0].message or "")
    assert report.summary.cost_usd == pytest.approx(0.003)
    assert js.count() == 0


@pytest.mark.parametrize(("raw", "passed", "error"), [
    ({"verdict": "PASS"}, True, None), ({"score": 0.69}, False, None), (True, True, None),
    ({"score": "high"}, None, "score is not a number: 'high'"), ({}, None,
                                                                 "the verdict has neither"),
])
def test_custom_verdict_shapes(raw: object, passed: bool | None, error: str | None) -> None:
    v = normalise(raw, 0.7)
    assert v.passed is passed
    assert (v.error or "").startswith(error or "")


def test_custom_judges_alone_never_import_litellm(tmp_path: Path) -> None:
    (tmp_path / "myjudges.py").write_text(JUDGE_PY, encoding="utf-8")
    suite = write(tmp_path, """
  - name: python judge
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: "result.content[0].text", matcher: {custom-judge: {python: "myjudges:judge"}}}
""")
    probe = ("import sys; from mcptest.cli.main import main; "
             f"rc = main(['run', '--config', {str(suite)!r}, '--no-cache']); "
             "print('litellm imported:', 'litellm' in sys.modules); sys.exit(rc)")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env={"PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert "litellm imported: False" in done.stdout
