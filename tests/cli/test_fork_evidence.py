"""A fork's pull request that edits committed evidence (issue 34): one judge reply's score in a
model cassette (0.1 → 0.95, a failing test would pass in replay) and a cascade record's tier
threshold (→ 0, the cheap judge would settle everything). `mcptest run` on the fork's pull
request names both files in the comment, the replayed verdict is not a pass, and the cascade
is advisory (docs/cassettes.md and docs/cascade.md, "What is trusted")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD, POLITE_PAIR
from support.github_events import pull_request_event
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # git, the example server, calibrate and run as processes

REPO = Path(__file__).resolve().parents[2]
CHEAP = "gpt-4o-mini"
JURORS = ("claude-sonnet-4-5", "gemini/gemini-2.5-pro", "gpt-4.1")
CASCADE = "examples/escalate/release-note.cascade.json"
JUDGED = HEAD + """judge: {model: judge-x}
tools:
  - name: greets politely
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: "result.content[0].text"
        matcher: {llm-judge: {rubric: "The greeting is polite.", threshold: 0.5}}
"""


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
                          cwd=cwd, check=True, capture_output=True, text=True).stdout


def mcptest(cwd: Path, env: dict[str, str], *args: str) -> Ran:
    """`mcptest ARGS` in the test's process (support/cli_inproc.py), without provider keys."""
    return cli(*args, cwd=cwd, env={"MCPTEST_PYTHON": sys.executable, **env})


def script_labels(js: JudgeServer, root: Path) -> None:
    labels = yaml.safe_load((root / "examples/calibration/labels.yaml").read_text())["labels"]
    for label in labels:
        passes = label["human"] == "pass"
        score = 0.97 if passes else 0.04
        js.script(CHEAP, Verdict(score=score), candidate=label["candidate"])
        for juror in JURORS:
            js.script(juror, Verdict(score=0.9 if passes else 0.1), candidate=label["candidate"])


def test_a_forks_changed_cassette_and_record_are_named_and_not_trusted(
        tmp_path: Path, js: JudgeServer) -> None:
    for part in ("escalate", "server", "calibration"):
        shutil.copytree(REPO / "examples" / part, tmp_path / "examples" / part)
    (tmp_path / "judged.yml").write_text(JUDGED, encoding="utf-8")
    gateway = js.gateway_env()
    script_labels(js, tmp_path)
    done = mcptest(tmp_path, gateway, "calibrate", "examples/escalate/mcptest.yml", "--labels",
                   "examples/calibration/labels.yaml", "--no-cache", "--target-agreement",
                   "0.8", "--risk", "0.2")
    assert done.returncode == 0, done.stderr
    js.script("judge-x", Verdict(score=0.1, reason="curt"))
    done = mcptest(tmp_path, gateway, "run", "judged.yml", "--no-cache", "--models", "record")
    assert done.returncode == 1, done.stdout + done.stderr  # the greeting fails the rubric
    git(tmp_path, "init", "-q", "-b", "main")
    git(tmp_path, "add", "-A")
    git(tmp_path, "commit", "-qm", "base")

    # the fork's pull request: the judge's score in the cassette, the cheap tier's threshold
    git(tmp_path, "checkout", "-qb", "fork-feature")
    [tape] = (tmp_path / "cassettes" / "judged").iterdir()
    doc = json.loads(tape.read_text())
    for entry in doc["requests"]:
        for reply in entry["replies"]:
            verdict = json.loads(reply["content"])
            reply["content"] = json.dumps({**verdict, "score": 0.95})
    tape.write_text(json.dumps(doc, indent=2))
    record = json.loads((tmp_path / CASCADE).read_text())
    record["cascade"]["tiers"][0]["threshold"] = 0.0
    (tmp_path / CASCADE).write_text(json.dumps(record, indent=2))
    git(tmp_path, "commit", "-qam", "tweak evidence")

    event = tmp_path / "event.json"
    event.write_text(json.dumps(pull_request_event(7, head_repo="someone/fork")))
    fork = {**gateway, "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
            "GITHUB_BASE_REF": "main"}
    js.script(CHEAP, Verdict(score=0.98), candidate="Deployed billing v2.4.1 to production.")
    for juror in JURORS:
        js.script(juror, Verdict(score=0.9))
    js.reset_counts()
    done = mcptest(tmp_path, fork, "run", "judged.yml", "examples/escalate/mcptest.yml",
                   "--no-cache", "--models", "replay-or-record", "--evidence-base", "main",
                   "--reporter", "md", "--output", "comment.md",
                   "--reporter", "json", "--output", "report.json")
    report: dict[str, Any] = json.loads((tmp_path / "report.json").read_text())
    comment = (tmp_path / "comment.md").read_text().replace("&#58;", ":")
    rows = {t["name"]: t for t in report["tests"]}
    shown = os.path.relpath(tape, tmp_path)

    replayed = rows["greets politely"]
    assert replayed["status"] == "failed" and replayed["gap"] == "replay"
    assert f"replayed from a cassette this pull request changed ({shown}): not a pass" in (
        replayed["message"])
    assert replayed["evidence"] == [shown]
    vote = replayed["assertions"][0]["judge"]["votes"][0]
    assert vote["replayed_from"] == shown and vote["score"] == 0.95  # the file's, and said so

    cascade = rows["release note reads as a deployment note"]["assertions"][0]
    assert cascade["calibration"]["state"] == "untrusted"
    assert cascade["calibration"]["advisory"] and cascade["calibration"]["record_changed"]
    assert cascade["judge"]["escalation"]["decided_by"] == 2  # no threshold: the last tier
    assert js.count(CHEAP) == 0  # the cheap tier was not asked: nothing it says is trusted

    for file, kind in ((shown, "a model cassette"), ("release-note.cascade.json",
                                                     "a calibration record")):
        assert f"evidence this pull request changed: {file} ({kind}; 1 verdict(s) rest on " \
               "it; not trusted here)" in comment, comment
    assert done.returncode == 1, done.stdout + done.stderr


TWO = POLITE_PAIR


def test_without_git_the_changed_file_list_says_which_cassette_changed(
        tmp_path: Path, js: JudgeServer) -> None:
    """No repository (as in the Action's image): `--evidence-changed-files` names what the fork
    changed, relative to $GITHUB_WORKSPACE; a list the CLI refuses is exit 2 at its line."""
    work = tmp_path / "suites"
    work.mkdir()
    (work / "two.yml").write_text(TWO, encoding="utf-8")
    js.script("judge-x", Verdict(score=0.9, reason="polite"))
    done = mcptest(work, js.gateway_env(), "run", "two.yml", "--no-cache", "--models", "record")
    assert done.returncode == 0, done.stdout + done.stderr
    [bob] = (work / "cassettes" / "two").glob("tool-greets-bob-*.json")
    listed = tmp_path / "changed.txt"
    listed.write_text(f"README.md\n{bob.relative_to(tmp_path).as_posix()}\n")
    event = tmp_path / "event.json"
    event.write_text(json.dumps(pull_request_event(7, head_repo="someone/fork")))
    fork = {"GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
            "GITHUB_BASE_REF": "main", "GITHUB_WORKSPACE": str(tmp_path)}

    done = mcptest(work, fork, "run", "two.yml", "--models", "replay", "--reporter", "json",
                   "--output", "report.json", "--evidence-changed-files", str(listed))
    report: dict[str, Any] = json.loads((work / "report.json").read_text())
    rows = {t["name"]: t["status"] for t in report["tests"]}
    assert rows == {"greets Ada politely": "passed", "greets Bob politely": "failed"}, done.stdout
    assert done.returncode == 1
    assert any(w.startswith("which cassettes and records changed since origin/main was taken "
                            "from the changed-file list given (2 path(s); git could not tell")
               for w in report["warnings"]), report["warnings"]

    listed.write_text("README.md\n/etc/passwd\n")
    done = mcptest(work, fork, "run", "two.yml", "--models", "replay",
                   "--evidence-changed-files", str(listed))
    assert done.returncode == 2
    assert f"error: {listed}:2:1: an absolute path (give it relative to the repository root)" \
        in done.stderr
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    done = mcptest(work, fork, "run", "two.yml", "--models", "replay",
                   "--evidence-changed-files", str(fifo))
    assert done.returncode == 2 and "not a regular file" in done.stderr
