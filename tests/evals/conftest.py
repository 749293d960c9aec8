"""In-process runs of eval/agent suites against the loopback judge server and real servers."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from support.judge_server import JudgeServer

from mcptest.llm.contracts import JudgeOptions
from mcptest.pipeline import RunOptions, run_plan
from mcptest.plan import build_plan
from mcptest.report.models import Report, TestResult
from mcptest.suite.load import load_suites

REPO = Path(__file__).resolve().parents[2]
DATA = REPO / "tests" / "data" / "evals"
JUDGE = "judge-m"


def judge_env(js: JudgeServer, **extra: str) -> dict[str, str]:
    return {**js.gateway_env(), "MCPTEST_JUDGE_MODEL": JUDGE, "MCPTEST_PYTHON": sys.executable,
            "PATH": "/usr/bin:/bin", **extra}


def run_suite(path: Path, env: dict[str, str], *, filter: str | None = None,
              evals: bool = True, tools: bool = False, agents: bool = True,
              max_cost: float | None = None, require_judge: bool = False,
              cache_dir: Path | None = None, require_calibration: bool = False) -> Report:
    suites = load_suites([path], env=env)
    plan = build_plan(suites, filter=filter, tools=tools, evals=evals, agents=agents)
    judge = JudgeOptions(env=env, cache_dir=cache_dir, max_cost=max_cost,
                         require_judge=require_judge, retry_base_delay=0.0, max_tries=1,
                         require_calibration=require_calibration)
    options = RunOptions(judge=judge, handle_signals=False)
    return run_plan(plan, options).report


def row(report: Report, name: str) -> TestResult:
    found = [t for t in report.tests if t.name == name]
    assert len(found) == 1, [t.name for t in report.tests]
    return found[0]


def judge_requests(js: JudgeServer, model: str | None = None) -> list[dict[str, Any]]:
    """Requests that were judge calls (agent turns carry no rubric)."""
    return [b for b in js.requests(model) if "Rubric:" in str(b.get("messages"))]


@pytest.fixture
def js() -> Any:
    with JudgeServer() as server:
        yield server
