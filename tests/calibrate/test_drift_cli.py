"""`mcptest calibrate --check-drift` against a judge stand-in whose verdicts change
(docs/calibration.md, "Drift"): the record is calibrated, the judge then fails what it passed on
a third of the labels, the check says the judge drifted and why, the record is stale, and the
next run's verdicts are advisory and say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from calibrate.test_calibrate_command import (  # the worked example's set-up
    _calibrate_example,
    _report,
    example,
    gateway,
    js,
)
from support.judge_server import JudgeServer, Verdict

from mcptest.cli.main import main
from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server
__all__ = ["example", "gateway", "js"]  # fixtures


def _drift(example: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(["calibrate", str(example / "mcptest.yml"), "--labels",
                 str(example / "labels.yaml"), "--check-drift"])
    return code, capsys.readouterr().out


def test_a_changed_judge_makes_the_record_stale_and_the_run_advisory(
        example: Path, js: JudgeServer, gateway: dict[str, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    assert _calibrate_example(example, js) == 0
    record_path = example / "release-note.calibration.json"
    record = json.loads(record_path.read_text())
    assert len(record["verdicts"]) == 24 and record["drift"] is None

    code, out = _drift(example, capsys)  # the same judge: no drift
    assert code == ExitCode.OK and "no drift: 0 of 24 verdicts changed" in out, out

    labels = yaml.safe_load((example / "labels.yaml").read_text())["labels"]
    passing = [label for label in labels if label["human"] == "pass"]
    for label in passing[:8]:  # the model behind the name changed: it now fails these
        js.script("release-judge", Verdict(score=0.1), candidate=label["candidate"])
    code, out = _drift(example, capsys)
    assert code == ExitCode.TESTS_FAILED and "drifted: 8 of 24 verdicts changed" in out, out
    drift = json.loads(record_path.read_text())["drift"]
    assert drift["stale"] and drift["flips"] == 8 and drift["to_pass"] == 0
    assert drift["p_value"] < 0.01

    code, report = _report(example, js)
    a = report["tests"][0]["assertions"][0]
    assert a["calibration"]["state"] == "stale" and a["calibration"]["advisory"]
    assert "the judge drifted: 8 of 24 verdicts changed" in a["calibration"]["reason"]
    assert "advisory (uncalibrated: the judge drifted" in a["message"]
    assert code == ExitCode.OK  # its fail is advisory: it does not fail the run


def test_the_record_keeps_the_provider_version_and_the_check_says_when_it_changed(
        example: Path, js: JudgeServer, gateway: dict[str, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    js.fingerprint("fp_one")
    assert _calibrate_example(example, js) == 0
    record_path = example / "release-note.calibration.json"
    record = json.loads(record_path.read_text())
    assert record["provider_versions"] == {"release-judge": ["release-judge / fp_one"]}

    code, out = _drift(example, capsys)  # the same backend: nothing to say
    assert code == ExitCode.OK and "version changed" not in out, out
    js.fingerprint("fp_two")  # the provider moved the name to another backend
    code, out = _drift(example, capsys)
    assert code == ExitCode.OK, out  # the verdicts did not change: not stale
    assert ("the provider's model version changed: release-judge: release-judge / fp_one → "
            "release-judge / fp_two") in out
    drift = json.loads(record_path.read_text())["drift"]
    assert drift["versions_changed"] == ["release-judge: release-judge / fp_one → "
                                         "release-judge / fp_two"] and not drift["stale"]
