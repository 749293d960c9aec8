"""`mcptest demo-judge` (issue 37): with no key at all, a newcomer sees a live jury with its
agreement band, a calibration table and a recording, every one labelled as the scripted judge's
(docs/judges.md, "A scripted judge, to see one work")."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli

from mcptest.cli.commands.demo_judge import BANNER
from mcptest.cli.scripted_judge import scripted_score

pytestmark = pytest.mark.slow  # starts the example server

REPO = Path(__file__).resolve().parents[2]
ENV = {"MCPTEST_PYTHON": sys.executable, "OPENAI_API_KEY": "sk-not-for-the-demo"}
SCRIPTED = "[scripted judge, not a model]"


def test_a_jury_and_a_recording_without_a_key(tmp_path: Path) -> None:
    tapes = tmp_path / "cassettes"
    ran = cli("demo-judge", "run", "examples/judges.yml", "--no-cache", "--models", "record",
              "--cassette-dir", tapes, "--reporter", "pretty", "--reporter", "json",
              "--output", tmp_path / "run.json", cwd=REPO, env=ENV)
    assert ran.stderr.startswith(BANNER.format(when="below")), ran.stderr
    assert ran.stderr.rstrip().splitlines()[-1] == BANNER.format(when="above")
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    jury = next(t for t in report["tests"] if "jury" in t["name"])
    assert jury["status"] in ("passed", "failed")  # judged, not deferred
    assert "jury: " in ran.stdout and " · α " in ran.stdout  # the band and agreement
    votes = [v for a in jury["assertions"] if a.get("judge") for v in a["judge"]["votes"]]
    assert len(votes) == 3 and all(SCRIPTED in (v.get("reason") or "") for v in votes)
    assert "sk-not-for-the-demo" not in json.dumps(report)
    written = sorted(tapes.rglob("*.json"))
    assert len(written) == 2 and all(SCRIPTED in p.read_text(encoding="utf-8") for p in written)


def test_a_calibration_table_without_a_key(tmp_path: Path) -> None:
    record = tmp_path / "calibration.json"
    ran = cli("demo-judge", "calibrate", "examples/calibration/mcptest.yml", "--labels",
              "examples/calibration/labels.yaml", "--output", record, cwd=REPO, env=ENV)
    assert ran.returncode == 0, ran.stderr
    assert "Cohen's κ" in ran.stdout and SCRIPTED in ran.stdout
    assert ran.stderr.rstrip().splitlines()[-1] == BANNER.format(when="above")
    assert json.loads(record.read_text(encoding="utf-8"))["labels"] == 24


def test_a_report_on_stdout_stays_whole(tmp_path: Path) -> None:
    ran = cli("demo-judge", "run", "examples/judges.yml", "--no-cache", "--quiet",
              "--reporter", "json", cwd=REPO, env=ENV)
    report = json.loads(ran.stdout)  # the closing line is not appended to it
    assert report["summary"]["counts"]["total"] >= 1
    assert ran.stderr.rstrip().splitlines()[-1] == BANNER.format(when="above")


def test_scores_are_fixed_by_the_request_and_jurors_differ_a_little() -> None:
    messages = [{"role": "user", "content": "Rubric: polite. Candidate: Hello, Ada!"}]
    a, b = scripted_score("gpt-4o", messages), scripted_score("claude-sonnet-4-5", messages)
    assert a == scripted_score("gpt-4o", messages) and 0.45 <= a <= 1.0
    assert abs(a - b) <= 0.3
    fenced = [{"role": "user", "content": f"<candidate_{n}>Hello</candidate_{n}>"}
              for n in ("0a1b2c3d4e5f", "ffffffffffff")]  # the per-call nonce: not scored
    assert scripted_score("gpt-4o", fenced[:1]) == scripted_score("gpt-4o", fenced[1:])


def test_only_judged_commands_run() -> None:
    ran = cli("demo-judge", "lint", "examples/basics.yml", cwd=REPO)
    assert ran.returncode == 2 and "demo-judge runs one of run, eval, calibrate" in ran.stderr
