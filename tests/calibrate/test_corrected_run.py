"""A calibrated judge's run carries its corrected rate end to end (docs/statistics.md): the
worked example calibrated against 50 synthetic labels the judge gets 6 wrong, then run five
times; the report and the terminal put the judge's rate beside the corrected one."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import on_shared_server
from support.judge_errors import worked_labels
from support.judge_server import JudgeServer, Verdict

from mcptest.stats.judge_correction import JudgeErrors, correct_rate
from mcptest.stats.label_planner import rogan_gladen_gain, rogan_gladen_labels

REPO = Path(__file__).resolve().parents[2]
SERVER_OUTPUT = "Deployed billing v2.4.1 to production."

pytestmark = pytest.mark.slow  # starts real servers and subprocesses


def _mcptest(*args: str | Path, env: dict[str, str]) -> Ran:
    """`mcptest ARGS` in this process (what it writes is the point), with the environment its
    subprocess got."""
    return cli(*args, inherit=False, env={**os.environ, "MCPTEST_PYTHON": sys.executable, **env})


def _planner_printed(out: str) -> None:
    """`calibrate` prints the label planner at the judge's measured errors, for 1,000 judged
    tests at the judge's pass share on the labels (32 of 50)."""
    errors = JudgeErrors(human_fail=20, judge_fail=16, human_pass=30, judge_pass=28)
    plan = rogan_gladen_labels(0.64, 1000, errors, 0.05)
    assert "## Label planner" in out and plan.reachable
    assert (f"±0.050 (`--plan-width`): {plan.total} labels ({plan.fails} failing, "
            f"{plan.passes} passing), {plan.more} more than now") in out
    gain, ceiling = rogan_gladen_gain(0.64, 1000, errors)
    assert f"each label is worth {gain:.2f} human-only labels" in out
    assert f"at most {ceiling:.2f}" in out or "capped at 2" in out


def test_the_run_reports_the_judges_rate_and_the_corrected_one(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples" / "calibration", tmp_path / "calibration")
    shutil.copytree(REPO / "examples" / "server", tmp_path / "server")
    suite = on_shared_server(tmp_path / "calibration" / "mcptest.yml")
    with JudgeServer() as js:
        labels = worked_labels(js, tmp_path)
        env = js.gateway_env()
        cal = _mcptest("calibrate", suite, "--labels", labels, "--no-cache", "--plan-rows",
                       "1000", env=env)
        assert cal.returncode == 0, cal.stderr
        _planner_printed(cal.stdout)
        js.script("release-judge", [Verdict(score=s) for s in (0.9, 0.9, 0.2, 0.9, 0.9)],
                  candidate=SERVER_OUTPUT)  # the judge passes 4 of 5 repetitions
        out = tmp_path / "report.json"
        # on the estimate: 4 of 5 reach 0.5 (the default gate holds the corrected lower end,
        # 0.17: tests/cli/test_interval_gates.py)
        run = _mcptest("run", suite, "--repeat", "5", "--min-pass-rate", "0.5",
                       "--min-pass-rate-on", "estimate", "--no-cache",
                       "--reporter", "pretty", "--reporter", "json", "--output", out, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    report = json.loads(out.read_text())
    [judge] = report["summary"]["corrected"]
    errors = JudgeErrors(human_fail=20, judge_fail=16, human_pass=30, judge_pass=28)
    want = correct_rate(0.8, 1, errors)
    assert want is not None
    assert judge["record"] == "release-note.calibration.json" and judge["tests"] == 1
    assert judge["corrected"]["raw_rate"] == pytest.approx(0.8)
    assert judge["corrected"]["rate"] == pytest.approx(want.rate, abs=1e-6)
    assert judge["corrected"]["errors"] == {"human_fail": 20, "judge_fail": 16,
                                            "human_pass": 30, "judge_pass": 28}
    [row] = report["tests"][0]["corrected"]
    assert (row["judged_passed"], row["judged"]) == (4, 5)
    assert "judged 4/5 → corrected" in run.stdout
    assert "judge release-note.calibration.json: 1 test(s), judged pass rate 0.80 → corrected" \
        in run.stdout
