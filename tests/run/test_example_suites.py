"""The example suites validate, and pass when the real CLI runs them against the example server.

These keep examples/ honest: a changed server answer or matcher breaks them here first.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml
from support.servers import HTTP_TOKEN, REPO, HttpServer

from mcptest.suite.models import Suite

EXAMPLES = REPO / "examples"
SUITES = ["basics.yml", "http.yml", "judges.yml"]
SCHEMA_LINE = "# yaml-language-server: $schema=../schema/v1.json\n"


@pytest.mark.parametrize("name", SUITES)
def test_example_validates_against_the_models(name: str) -> None:
    text = (EXAMPLES / name).read_text()
    assert text.startswith(SCHEMA_LINE)
    suite = Suite.model_validate(yaml.safe_load(text))
    assert suite.tools, name


def test_basics_uses_every_deterministic_matcher() -> None:
    text = (EXAMPLES / "basics.yml").read_text()
    for kind in ("exact", "contains", "regex", "schema", "not", "all", "any"):
        assert f"{kind}:" in text, kind
    assert "result.isError" in text and "result.structuredContent" in text


def run_cli(suite: str, tmp_path: Path, **extra_env: str) -> tuple[int, dict[str, Any]]:
    """`mcptest run` in a subprocess, key-free, with the JSON report read back."""
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("_API_KEY") and not k.startswith("MCPTEST_")}
    env.update(MCPTEST_PYTHON=sys.executable, **extra_env)
    report = tmp_path / "report.json"
    cli = Path(sys.executable).parent / "mcptest"
    done = subprocess.run(
        [str(cli), "run", str(EXAMPLES / suite), "--no-cache", "--reporter", "json",
         "--output", str(report)],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=180, check=False,
    )
    assert report.exists(), done.stderr[-3000:]
    return done.returncode, json.loads(report.read_text())


def all_assertions_passed(report: dict[str, Any]) -> None:
    for test in report["tests"]:
        statuses = [a["status"] for a in test["assertions"]]
        assert test["status"] == "passed" and set(statuses) == {"passed"}, (test["name"], test)


@pytest.mark.slow
def test_basics_example_passes(tmp_path: Path) -> None:
    code, report = run_cli("basics.yml", tmp_path)
    assert code == 0
    assert report["summary"]["counts"]["passed"] == report["summary"]["counts"]["total"] == 9
    all_assertions_passed(report)
    (server,) = report["servers"]
    assert server["transport"] == "stdio" and server["protocol_version"] == "2026-07-28"


@pytest.mark.slow
def test_http_example_passes(example_http: HttpServer, tmp_path: Path) -> None:
    port = str(urlsplit(example_http.url).port)
    code, report = run_cli(
        "http.yml", tmp_path, MCPTEST_EXAMPLE_PORT=port, MCPTEST_EXAMPLE_TOKEN=HTTP_TOKEN
    )
    assert code == 0
    assert report["summary"]["counts"]["passed"] == 4
    all_assertions_passed(report)
    assert HTTP_TOKEN not in json.dumps(report)


@pytest.mark.slow
def test_judges_example_defers_without_a_judge(tmp_path: Path) -> None:
    code, report = run_cli("judges.yml", tmp_path)
    counts = report["summary"]["counts"]
    assert counts["failed"] == counts["error"] == 0
    assert counts["deferred"] == 2 and code == 0
    for test in report["tests"]:
        first = test["assertions"][0]  # the deterministic check ahead of the judges
        assert first["matcher"] in ("regex", "exact") and first["status"] == "passed"
        llm = [a for a in test["assertions"] if a["matcher"] in ("llm-judge", "llm-jury")]
        assert llm and {a["status"] for a in llm} == {"deferred"}


@pytest.mark.slow
def test_cases_example_runs_its_table_latency_bound_and_trajectory(tmp_path: Path) -> None:
    from support.judge_server import Fault, JudgeServer, ToolCalls

    code, report = run_cli("cases.yml", tmp_path)  # no model: the agent row is deferred
    assert code == 0
    rows = {t["name"]: t for t in report["tests"]}
    assert rows["searches the catalog [case=nothing]"]["location"]["file"] == (
        "examples/cases/search.csv")
    assert sum(1 for t in report["tests"] if t["cell"] and "case" in t["cell"]) == 6
    assert rows["searches before answering"]["status"] == "deferred"
    assert all(t["assertions"][-1]["target"] == "duration_ms" for t in rows.values()
               if t["status"] == "passed")
    with JudgeServer() as js:
        js.script("gpt-4o-mini", [ToolCalls(("search_services", {"query": "payments"})),
                                  Fault.text("The payments team owns billing and checkout.")])
        code, report = run_cli("cases.yml", tmp_path, **js.gateway_env())
    agent = next(t for t in report["tests"] if t["kind"] == "agent")
    assert "duration_ms" not in [a["target"] for a in agent["assertions"]]  # defaults.kinds
    assert agent["status"] == "passed", [(a["target"], a["message"]) for a in agent["assertions"]]
    assert code == 0
