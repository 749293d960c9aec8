"""An escalation cascade without a calibration record (docs/cascade.md, "Without a record"):
only its last tier runs, a fail is advisory, and `--require-calibration` makes it fail the run.
examples/escalate through the CLI, judged by the loopback judge server."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import on_shared_server
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # runs the worked example, importing litellm

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        server.script("*", Verdict(score=0.2, reason="no rollback step"))
        yield server


@pytest.fixture
def example(tmp_path: Path) -> Path:
    shutil.copytree(REPO / "examples" / "escalate", tmp_path / "escalate")
    shutil.copytree(REPO / "examples" / "server", tmp_path / "server")
    on_shared_server(tmp_path / "escalate" / "mcptest.yml")
    return tmp_path / "escalate"


def run(example: Path, js: JudgeServer, *flags: str) -> tuple[int, dict]:
    done = cli("run", "mcptest.yml", "--no-cache", "--reporter", "json", "--output", "r.json",
               *flags, cwd=example, inherit=False,
               env={**os.environ, "MCPTEST_PYTHON": sys.executable, **js.gateway_env()})
    assert done.returncode in (0, 1), done.stdout + done.stderr
    return done.returncode, json.loads((example / "r.json").read_text())


def test_an_uncalibrated_cascade_is_advisory_unless_calibration_is_required(
        example: Path, js: JudgeServer) -> None:
    code, report = run(example, js)
    a, t = report["tests"][0]["assertions"][0], report["tests"][0]
    assert code == ExitCode.OK and a["status"] == "deferred" and t["gap"] is None
    assert a["calibration"]["advisory"] is True and a["calibration"]["verdict"] == "failed"
    e = a["judge"]["escalation"]
    assert e["decided_by"] == 2 and e["calibrated"] is False and not e["tiers"][0]["ran"]
    assert js.count("gpt-4o-mini") == 0  # the cheap tier has no threshold: never paid
    assert js.count("gpt-4.1") == 1  # (the server counts by the name the suite gives)
    assert report["summary"]["uncalibrated"] == 1
    code, report = run(example, js, "--require-calibration")
    a, t = report["tests"][0]["assertions"][0], report["tests"][0]
    assert code == ExitCode.TESTS_FAILED and a["status"] == "failed"
    assert t["gap"] == "judge-calibration" and a["message"].startswith("calibration required")
    assert js.count("gpt-4o-mini") == 0
