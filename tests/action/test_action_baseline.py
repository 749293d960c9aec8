"""`baseline: auto | PATH` through the whole Action: the real CLI and example server, and the
loopback GitHub server's compare, commits, artifacts and zip-download endpoints."""

from __future__ import annotations

import functools
import io
import json
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from support.action_env import PR, TOKEN, Runner
from support.cli_inproc import cli
from support.github_events import pull_request_event
from support.github_server import GitHubServer

from mcptest.action.main import run_action
from mcptest.reporters.escape import md_inline

pytestmark = pytest.mark.slow  # starts real servers or subprocesses
SERVER = Path(__file__).resolve().parents[2] / "examples" / "server" / "example_server.py"
SUITE = f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
    env: {{FLAG: {{env: FLAG}}}}
tools:
  - name: flag is on
    server: ex
    tool: get_env
    args: {{name: FLAG}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "on"}}}}]
  - name: greets Ada
    server: ex
    tool: greet
    args: {{name: Ada}}
"""
HISTORY = [("c5" * 20, "2026-11-20T10:00:00Z"), ("c4" * 20, "2026-11-19T10:00:00Z"),
           ("c3" * 20, "2026-11-18T10:00:00Z"), ("c2" * 20, "2026-11-17T10:00:00Z")]
MERGE_BASE = HISTORY[0][0]


@functools.cache
def push_run(flag: str) -> str:
    """The JSON report of a push run of SUITE with FLAG=`flag`, once per test process: the
    reports a test stores as artifacts are its data, not what it tests, and the same two runs
    were made again for every artifact (~1.5 s of CPU each: mcptest and a server process)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "mcptest.yml").write_text(SUITE, encoding="utf-8")
        cli("run", "mcptest.yml", "--reporter", "json", "--output", "push.json", cwd=Path(tmp),
            env={"PATH": "/usr/bin:/bin", "FLAG": flag}, inherit=False)
        return (Path(tmp) / "push.json").read_text(encoding="utf-8")


def base_report(flag: str = "on", **summary: object) -> bytes:
    """A push run's report, zipped as upload-artifact stores it (`summary` overrides fields)."""
    data = json.loads(push_run(flag))
    data["summary"].update(summary)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("mcptest.json", json.dumps(data))
    return buffer.getvalue()


def pr_runner(runner: Runner, **inputs: str) -> Runner:
    (runner.workspace / "mcptest.yml").write_text(SUITE, encoding="utf-8")
    Path(runner.env["GITHUB_EVENT_PATH"]).write_text(json.dumps(pull_request_event(PR)))
    runner.inputs(suites="mcptest.yml", **inputs)
    runner.env["FLAG"] = "off"  # this PR breaks `flag is on`
    return runner


def act(runner: Runner, gh: GitHubServer) -> tuple[int, str, str]:
    runner.env["GITHUB_API_URL"] = gh.url
    out = io.StringIO()
    code = run_action(runner.env, out, workspace=runner.workspace)
    comments = gh.comments(PR)
    return code, out.getvalue(), comments[0]["body"] if comments else ""


def test_merge_base_artifact_is_the_baseline_and_regressions_lead(runner: Runner) -> None:
    pr_runner(runner, baseline="auto", fail_on="regressed")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        gh.baseline.add("mcptest-report", MERGE_BASE, base_report(), False,
                        "2026-11-20T10:05:00Z")
        gh.baseline.add("other-report", MERGE_BASE, b"not a zip", False, "2026-11-20T10:06:00Z")
        code, log, body = act(runner, gh)
        authorizations = gh.baseline.blob_authorizations
    assert code == 1, log
    assert f"baseline: the run on the merge-base {MERGE_BASE[:7]}" in log
    assert authorizations == [None]  # the token never goes to artifact storage
    assert body.index("Compared with the baseline") < body.index("Regressed: 1") < body.index(
        "Full results")
    report = json.loads((runner.workspace / "mcptest-results" / "mcptest.json").read_text())
    assert report["comparison"]["counts"] == {"regressed": 1, "unchanged": 1}


def test_walks_back_past_missing_and_incomplete_reports_and_says_how_stale(
        runner: Runner) -> None:
    pr_runner(runner, baseline="auto", fail_on="regressed")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        # c5 (merge-base): nothing stored; c4: interrupted; c3: expired; c2: complete but its
        # flag was off too, so nothing regressed against it
        gh.baseline.add("mcptest-report", HISTORY[1][0], base_report(
            interrupted="SIGTERM"), False, "2026-11-19T10:05:00Z")
        gh.baseline.add("mcptest-report", HISTORY[2][0], base_report(), True,
                        "2026-11-18T10:05:00Z")
        gh.baseline.add("mcptest-report", HISTORY[3][0], base_report(flag="off"), False,
                        "2026-11-17T10:05:00Z")
        code, log, body = act(runner, gh)
    assert code == 0, log  # `flag is on` was already failing on c2: not this PR's doing
    assert (f"baseline: the run on {HISTORY[3][0][:7]}, 3 commit(s) before the merge-base "
            f"{MERGE_BASE[:7]}, 3.0 day(s) older") in log
    assert f"refused: {HISTORY[1][0][:7]}: the run was interrupted (SIGTERM)" in log
    assert "stale" in body and "Still failing: 1" in body


def test_no_baseline_behaves_as_today_and_says_so_in_one_line(runner: Runner) -> None:
    pr_runner(runner, baseline="auto")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        gh.baseline.add("mcptest-report", "9" * 40, base_report(), False,
                        "2026-11-20T10:05:00Z")  # a commit not on the base branch's history
        code, _, body = act(runner, gh)
    assert code == 1  # the failing test fails the run, as without a baseline
    note = (f"no baseline: no complete `mcptest-report` artifact on the merge-base "
            f"{MERGE_BASE[:7]} or the 3 commit(s) of main before it")
    assert body.splitlines()[1] == f"> {md_inline(note)}"  # inert: the note may quote a path
    assert "Compared with the baseline" not in body


def test_baseline_path_input_uses_the_file_and_refuses_an_incomplete_one(
        runner: Runner) -> None:
    pr_runner(runner, baseline="base.json", fail_on="regressed")
    with zipfile.ZipFile(io.BytesIO(base_report())) as z:
        (runner.workspace / "base.json").write_bytes(z.read("mcptest.json"))
    with GitHubServer(token=TOKEN) as gh:
        code, log, body = act(runner, gh)
        assert code == 1 and "Regressed: 1" in body
        assert not any("artifacts" in path for _, path in gh.requests)
    with zipfile.ZipFile(io.BytesIO(base_report(budget_stopped=True))) as z:
        (runner.workspace / "base.json").write_bytes(z.read("mcptest.json"))
    with GitHubServer(token=TOKEN) as gh:
        code, log, body = act(runner, gh)
    assert md_inline("no baseline: base.json is from an incomplete run (the budget cap stopped "
                     "the run)") in body
    runner.inputs(baseline="missing.json")
    with GitHubServer(token=TOKEN) as gh:
        code, log, _ = act(runner, gh)
    assert code == 2 and "input 'baseline'" in log
