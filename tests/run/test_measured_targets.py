"""Latency and cost as targets (docs/suites.md#latency-and-cost-limits), through the CLI: the
tool call's `duration_ms`, a test's `judge.cost_usd`/`judge.calls`, the suite's `defaults`."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses



def run(tmp_path: Path, body: str, env: dict[str, str] | None = None
        ) -> tuple[Ran, dict]:
    """`mcptest run` in this process (the report is the point), with its subprocess's
    environment."""
    (tmp_path / "suite.yml").write_text(HEAD + body, encoding="utf-8")
    r = cli("run", "suite.yml", "--reporter", "json", "--output", "out.json", cwd=tmp_path,
            inherit=False, env={**os.environ, **(env or {})})
    return r, json.loads((tmp_path / "out.json").read_text())


def test_duration_ms_is_checked_by_any_matcher_and_a_failure_shows_it(tmp_path: Path) -> None:
    body = """tools:
  - name: quick enough
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: duration_ms, matcher: {schema: {type: number, minimum: 0, maximum: 60000}}}
  - name: impossibly quick
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: duration_ms, matcher: {schema: {maximum: 0}}}
"""
    r, report = run(tmp_path, body)
    assert r.returncode == 1, r.stderr
    quick, impossible = report["tests"]
    assert quick["status"] == "passed"
    (a,) = impossible["assertions"]
    measured = a["actual"]
    assert isinstance(measured, float) and measured > 0
    assert a["message"] == (f"does not match the schema: {measured} is greater than the maximum "
                            "of 0")
    assert "duration_ms" not in impossible["response"]  # a measure, not part of the answer


def test_suite_defaults_add_a_latency_bound_to_every_test(tmp_path: Path) -> None:
    body = """defaults:
  expect:
    - {target: duration_ms, matcher: {schema: {maximum: 60000}}, message: "answers in time"}
tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: "result.content[0].text", matcher: {contains: Ada}}
  - name: adds
    server: ex
    tool: add
    args: {a: 1, b: 2}
resources:
  - name: reads
    server: ex
    uri: "catalog://services"
"""
    r, report = run(tmp_path, body)
    rows = {t["name"]: t for t in report["tests"]}
    greets = rows["greets"]["assertions"]
    assert [a["target"] for a in greets] == ["result.content[0].text", "duration_ms"]
    assert greets[1]["location"]["line"] == 6 and greets[1]["user_message"] == "answers in time"
    assert [a["target"] for a in rows["adds"]["assertions"]] == ["duration_ms"]
    assert [a["target"] for a in rows["reads"]["assertions"]] == ["duration_ms"]
    assert all(t["status"] == "passed" for t in rows.values()), r.stderr
    assert r.returncode == 0


def test_judge_cost_and_calls_are_targets_read_after_the_judges(tmp_path: Path) -> None:
    body = """judge:
  pricing: {judge-m: {input: 1000000, output: 1000000}}
tools:
  - name: judged and cheap
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: judge.calls, matcher: {exact: 2}}
      - {target: "result.content[0].text", matcher: {llm-judge: {rubric: "Is friendly."}}}
      - target: "result.content[0].text"
        matcher: {llm-jury: {rubric: "Is friendly.", jurors: [{model: judge-m}]}}
      - {target: judge.cost_usd, matcher: {schema: {exclusiveMinimum: 0, maximum: 1000}}}
  - name: judged and over budget
    server: ex
    tool: greet
    args: {name: Bob}
    expect:
      - {target: "result.content[0].text", matcher: {llm-judge: {rubric: "Is friendly."}}}
      - {target: judge.cost_usd, matcher: {schema: {maximum: 0.000001}}}
"""
    with JudgeServer() as js:
        js.script("judge-m", Verdict(0.9))
        env = {**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"}
        r, report = run(tmp_path, body, env)
        assert js.count("judge-m") == 3
    assert r.returncode == 1
    cheap, dear = report["tests"]
    assert cheap["status"] == "passed", [(a["target"], a["message"]) for a in cheap["assertions"]]
    spent = sum(a["cost_usd"] for a in cheap["assertions"])
    assert spent > 0
    assert dear["status"] == "failed"
    last = dear["assertions"][1]
    assert last["actual"] == dear["assertions"][0]["cost_usd"] > 0.000001
    assert last["message"].startswith(f"does not match the schema: {last['actual']} is greater")
