"""The worked example of docs/cascade.md, "Trust or escalate", as a reader runs it: its suite on
the test process's shared example server, the loopback judge behind a gateway, and `mcptest
calibrate` and `mcptest run` in the test's process (what the judge does is the subject here)."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from support.cli_inproc import Ran, cli
from support.cli_run import on_shared_server
from support.judge_server import JudgeServer, Verdict

REPO = Path(__file__).resolve().parents[2]
CHEAP = "gpt-4o-mini"
JURORS = ("claude-sonnet-4-5", "gemini/gemini-2.5-pro", "gpt-4.1")
SERVER_OUTPUT = "Deployed billing v2.4.1 to production."
UNSURE = {"good-06", "bad-09"}
"""Labels the small judge is unsure of (scores near the 0.7 line); bad-09 it also gets wrong."""

pytestmark = pytest.mark.slow  # judged runs against the loopback judge


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """The example beside copies of the example server (what its suite runs where no shared
    server is set) and the calibration example's labels, on the shared server."""
    shutil.copytree(REPO / "examples" / "escalate", tmp_path / "examples" / "escalate")
    shutil.copytree(REPO / "examples" / "server", tmp_path / "examples" / "server")
    shutil.copytree(REPO / "examples" / "calibration", tmp_path / "examples" / "calibration")
    on_shared_server(tmp_path / "examples" / "escalate" / "mcptest.yml")
    return tmp_path


def mcptest(cwd: Path, js: JudgeServer, *args: str) -> Ran:
    """`mcptest ARGS` in the test's process (support/cli_inproc.py), without provider keys."""
    return cli(*args, cwd=cwd, env={**js.gateway_env(), "MCPTEST_PYTHON": sys.executable})


def script_labels(js: JudgeServer, root: Path) -> None:
    labels = yaml.safe_load((root / "examples/calibration/labels.yaml").read_text())["labels"]
    for label in labels:
        passes = label["human"] == "pass"
        sure = label["id"] not in UNSURE
        score = (0.97 if passes else 0.04) if sure else (0.72 if label["id"] == "bad-09"
                                                          else 0.66)
        js.script(CHEAP, Verdict(score=score), candidate=label["candidate"])
        for juror in JURORS:
            js.script(juror, Verdict(score=0.9 if passes else 0.1), candidate=label["candidate"])


CALIBRATE = ["calibrate", "examples/escalate/mcptest.yml", "--labels",
             "examples/calibration/labels.yaml", "--no-cache"]


def test_too_few_labels_for_the_default_target_says_how_many(example: Path,
                                                              js: JudgeServer) -> None:
    run = mcptest(example, js, *CALIBRATE)
    assert run.returncode == 2 and js.count() == 0  # refused before any judge is paid
    assert ("24 label(s) cannot guarantee 90% agreement at risk 0.1: a tier is trusted only "
            "after at least 33 labels") in run.stderr
    bad = mcptest(example, js, *CALIBRATE, "--target-agreement", "90%")
    assert bad.returncode == 2 and "expected a number between 0 and 1, got '90%'" in bad.stderr


def test_calibrate_then_run(example: Path, js: JudgeServer) -> None:
    script_labels(js, example)
    run = mcptest(example, js, *CALIBRATE, "--target-agreement", "0.8", "--risk", "0.2")
    assert run.returncode == 0, run.stderr
    record = json.loads((example / "examples/escalate/release-note.cascade.json").read_text())
    cascade = record["cascade"]
    cheap, jury = cascade["tiers"]
    # down from the surest: 22 right, then bad-09 wrong (1 of 23 is within 20% at risk
    # 0.2/3), then good-06 wrong too (2 of 24 is not): the small judge settles 23
    assert cheap["threshold"] == pytest.approx(0.02 / 0.3)  # bad-09's confidence at 0.72
    assert cheap["settled"] == 23 and cheap["errors"] == 1 and cheap["guaranteed_agreement"] == 0.8
    assert jury["last"] and jury["settled"] == 1 and jury["errors"] == 0
    assert cascade["labels"] == 24 and cascade["agreement"] == pytest.approx(23 / 24)
    assert 0.0 < cascade["cost_per_verdict_usd"] < cascade["last_tier_cost_per_verdict_usd"]
    assert "## Escalation cascade (target agreement 80%, risk 0.2)" in run.stdout
    assert "| 1 | llm-judge `gpt-4o-mini` | confidence ≥ " in run.stdout

    # the server's note: the small judge is unsure, the jury decides (2 of 3 at quorum 0.67)
    js.script(CHEAP, Verdict(score=0.71, reason="no rollback step?"), candidate=SERVER_OUTPUT)
    for juror, score in zip(JURORS, (0.9, 0.85, 0.2), strict=True):
        js.script(juror, Verdict(score=score), candidate=SERVER_OUTPUT)
    out = mcptest(example, js, "run", "examples/escalate/mcptest.yml", "--no-cache",
                  "--reporter", "json", "--output", "report.json")
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads((example / "report.json").read_text())
    a = report["tests"][0]["assertions"][0]
    e = a["judge"]["escalation"]
    assert e["decided_by"] == 2 and e["calibrated"] and a["status"] == "passed"
    assert e["tiers"][0]["reason"].endswith(": escalated")
    assert a["message"].startswith("tier 2 of 2 (llm-jury claude-sonnet-4-5, "
                                   "gemini/gemini-2.5-pro, gpt-4.1): the last tier decides")
    s = report["summary"]["cascade"]
    assert s["settled"] == [0, 1] and s["guaranteed_agreement"] == cascade["guaranteed_agreement"]
    # the jury ran after the small judge: this verdict cost the small judge's call more
    assert s["saved_usd"] < 0
    assert s["saved_usd"] == pytest.approx(-e["tiers"][0]["cost_usd"], abs=1e-6)

    # a note the small judge is sure of: the jury is never asked, and the run says what it saved
    js.script(CHEAP, Verdict(score=0.98), candidate=SERVER_OUTPUT)
    js.reset_counts()
    out = mcptest(example, js, "run", "examples/escalate/mcptest.yml", "--no-cache")
    assert out.returncode == 0, out.stdout + out.stderr
    assert js.count(CHEAP) == 1 and js.count() == 1
    assert "▶ tier 1 llm-judge gpt-4o-mini: passed, score 0.98; confidence 0.93 ≥" in out.stdout
    assert "cascade: 1 verdict(s) settled (tier 1 1, tier 2 0)" in out.stdout
    assert "with the last tier on every one (saved $" in out.stdout
