"""`mcptest calibrate --check-drift` on an `escalate:` cascade (docs/calibration.md, "Drift"),
against the worked example's loopback judges: calibrated, then judged again unchanged (no
drift), then the small judge behind its versionless name fails a third of what it passed. The
check says which tier drifted and why, the record is stale, and the next run's cascade runs as
without a record: the jury alone, advisory, saying why. A record written before the tiers'
verdicts were kept gets a clear message."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import yaml
from calibrate.test_escalate_example import (  # the worked example's set-up
    CHEAP,
    JURORS,
    SERVER_OUTPUT,
    example,
    js,
    script_labels,
)
from support.cli_inproc import Ran, cli
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server
__all__ = ["example", "js"]  # fixtures

SUITE = "examples/escalate/mcptest.yml"
LABELS = "examples/calibration/labels.yaml"
RECORD = "examples/escalate/release-note.cascade.json"


def _cli(root: Path, js: JudgeServer, *args: str) -> Ran:
    return cli(*args, cwd=root, env={**js.gateway_env(), "MCPTEST_PYTHON": sys.executable})


def _drift(root: Path, js: JudgeServer) -> Ran:
    return _cli(root, js, "calibrate", SUITE, "--labels", LABELS, "--check-drift")


def test_a_changed_tier_makes_the_cascade_stale_and_the_run_advisory(
        example: Path, js: JudgeServer) -> None:
    script_labels(js, example)
    ran = _cli(example, js, "calibrate", SUITE, "--labels", LABELS, "--target-agreement", "0.8",
               "--risk", "0.2")
    assert ran.returncode == 0, ran.stderr
    record = json.loads((example / RECORD).read_text())
    cheap, jury = record["cascade"]["tiers"]
    assert len(cheap["verdicts"]) == len(jury["verdicts"]) == len(record["verdicts"]) == 24

    ran = _drift(example, js)  # the same judges: nothing moved
    assert ran.returncode == ExitCode.OK, ran.stdout + ran.stderr
    assert "no drift: the cascade's verdict: 0 of 24 verdicts changed" in ran.stdout
    assert "tier 1: no drift: 0 of 24" in ran.stdout and "tier 2: no drift: 0 of 24" in ran.stdout

    labels = yaml.safe_load((example / LABELS).read_text())["labels"]
    passing = [label for label in labels if label["human"] == "pass"]
    for label in passing[:8]:  # the small model behind the name changed: sure these fail
        js.script(CHEAP, Verdict(score=0.03), candidate=label["candidate"])
    js.reset_counts()
    ran = _drift(example, js)
    assert ran.returncode == ExitCode.TESTS_FAILED, ran.stdout + ran.stderr
    assert js.count(CHEAP) == 24 and js.count() == 24 * 4  # every tier, every label, fresh
    # tier 1 already failed good-06 (unsure, so the jury passed it): 7 of its verdicts flip,
    # and now sure of the fail it settles good-06 too: 8 of the cascade's
    assert ("drifted: the cascade's verdict: 8 of 24 verdicts changed (33%; 0 to pass, 8 to "
            "fail), McNemar p = 0.0078: above the 10% flip rate allowed; tier 1: 7 of 24 "
            "verdicts changed (29%; 0 to pass, 7 to fail), McNemar p = 0.016") in ran.stdout
    assert "tier 2: no drift: 0 of 24 verdicts changed" in ran.stdout
    drift = json.loads((example / RECORD).read_text())["drift"]
    assert drift["stale"] and drift["flips"] == 8
    assert [(t["tier"], t["flips"], t["stale"]) for t in drift["tiers"]] == [
        (1, 7, True), (2, 0, False)]

    js.script(CHEAP, Verdict(score=0.98), candidate=SERVER_OUTPUT)  # it would settle a pass
    for juror in JURORS:
        js.script(juror, Verdict(score=0.2), candidate=SERVER_OUTPUT)
    js.reset_counts()
    ran = _cli(example, js, "run", SUITE, "--no-cache", "--reporter", "json", "--output",
               "report.json")
    assert ran.returncode == ExitCode.OK, ran.stdout + ran.stderr  # its fail is advisory
    assert js.count(CHEAP) == 0  # a stale record has no thresholds: the jury alone decides
    a = json.loads((example / "report.json").read_text())["tests"][0]["assertions"][0]
    assert a["status"] == "deferred" and a["judge"]["escalation"]["decided_by"] == 2
    assert a["calibration"]["state"] == "stale" and a["calibration"]["advisory"]
    assert "the judge drifted: the cascade's verdict: 8 of 24" in a["calibration"]["reason"]
    assert a["message"].startswith("advisory (uncalibrated: the judge drifted: the cascade's")


def test_a_record_without_the_tiers_verdicts_says_to_calibrate_again(
        example: Path, js: JudgeServer) -> None:
    script_labels(js, example)
    assert _cli(example, js, "calibrate", SUITE, "--labels", LABELS, "--target-agreement", "0.8",
                "--risk", "0.2").returncode == 0
    path = example / RECORD
    record = json.loads(path.read_text())
    for tier in record["cascade"]["tiers"]:  # as a record written before they were kept
        tier.pop("verdicts")
    path.write_text(json.dumps(record))
    js.reset_counts()
    ran = _drift(example, js)
    assert ran.returncode == ExitCode.USAGE_ERROR and js.count() == 0  # nothing judged, nothing paid
    assert ("keeps no verdicts of the cascade and of each tier to compare with (written before "
            "they were kept): run `mcptest calibrate` once more, then --check-drift") in ran.stderr
