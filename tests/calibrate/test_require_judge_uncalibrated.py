"""`--require-judge` holds for a judge that has a `calibration:` but no record: a deferral it
turns into a failure was gated again as "advisory (uncalibrated)" and made `deferred`, exit 0,
saying "judge said failed" of a judge that said nothing (found by a reviewer). The calibration
gate now leaves alone a status no judge gave (`JudgeDetail.unheard`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import greet_suite

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server

UNCALIBRATED = ("{llm-judge: {rubric: A polite greeting., model: gpt-4o, "
                "calibration: {file: greet.calibration.json}}}")


@pytest.mark.parametrize("flags", [["--require-judge"],
                                   ["--require-judge", "--require-calibration"]])
def test_a_judge_that_never_answered_fails_under_require_judge(tmp_path: Path,
                                                              flags: list[str]) -> None:
    suite = greet_suite(tmp_path, matcher=UNCALIBRATED)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    r = cli("run", suite, "--no-cache", *flags, "--reporter", "json", "--output", "r.json",
            cwd=tmp_path, env=env, inherit=False)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    (assertion,) = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tests"][0][
        "assertions"]
    assert assertion["status"] == "failed"
    assert "advisory" not in assertion["message"] and "judge said" not in assertion["message"]
    assert assertion["message"].startswith("judge required but unavailable")
