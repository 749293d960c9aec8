"""`--require-judge` holds for a judge that has a `calibration:` but no record: a deferral it
turns into a failure was gated again as "advisory (uncalibrated)" and made `deferred`, exit 0,
saying "judge said failed" of a judge that said nothing (found by a reviewer). The calibration
gate now leaves alone a status no judge gave (`JudgeDetail.unheard`)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server

SERVER = Path(__file__).resolve().parents[2] / "examples" / "server" / "example_server.py"
SUITE = f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
tools:
  - name: greets politely
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-judge:
            rubric: A polite greeting.
            model: gpt-4o
            calibration: {{file: greet.calibration.json}}
"""


@pytest.mark.parametrize("flags", [["--require-judge"],
                                   ["--require-judge", "--require-calibration"]])
def test_a_judge_that_never_answered_fails_under_require_judge(tmp_path: Path,
                                                              flags: list[str]) -> None:
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    r = cli("run", "suite.yml", "--no-cache", *flags, "--reporter", "json", "--output", "r.json",
            cwd=tmp_path, env=env, inherit=False)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    (assertion,) = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tests"][0][
        "assertions"]
    assert assertion["status"] == "failed"
    assert "advisory" not in assertion["message"] and "judge said" not in assertion["message"]
    assert assertion["message"].startswith("judge required but unavailable")
