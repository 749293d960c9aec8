"""`mcptest calibrate --target-agreement` asks the judges of every tier (issue 37: the cascade
page did not say so): without a key or gateway it stops, says it needs them and how to see one
without a key, and writes nothing."""

from __future__ import annotations

from pathlib import Path

from support.cli_inproc import cli

from mcptest.exit_codes import ExitCode

REPO = Path(__file__).resolve().parents[2]


def test_a_cascade_calibration_without_a_key_says_it_needs_the_judges(tmp_path: Path) -> None:
    out = tmp_path / "record.json"
    ran = cli("calibrate", "examples/escalate/mcptest.yml", "--labels",
              "examples/calibration/labels.yaml", "--target-agreement", "0.8", "--risk", "0.2",
              "--no-cache", "--output", out, cwd=REPO)
    assert ran.returncode == ExitCode.USAGE_ERROR, ran.stdout + ran.stderr
    assert "calibrate asks the judge (every tier of a cascade) about each label" in ran.stderr
    assert "MCPTEST_JUDGE_BASE_URL" in ran.stderr and "mcptest demo-judge calibrate" in ran.stderr
    assert not out.exists()
