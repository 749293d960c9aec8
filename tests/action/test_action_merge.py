"""The Action's CI matrix (docs/action.md, "Shards"): four shard jobs run the real CLI on the
example server with `shard: i/4` and `comment: false`, then a `mode: merge` job merges their
reports and posts the one comment, against the loopback GitHub server and a real event file.
"""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from reports import make_report
from support.action_env import PR, TOKEN, Runner, new_runner
from support.cli_inproc import cli
from support.cli_run import HEAD
from support.github_server import GitHubServer

from mcptest.action.inputs import read_inputs
from mcptest.action.main import run_action
from mcptest.errors import UsageError

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "entrypoint.py"
FAILING = 5  # `add 5` expects a wrong sum: the shard that draws it fails
TESTS = 8


def _suite() -> str:
    tests = "".join(f"""
  - name: add {i}
    server: ex
    tool: add
    args: {{a: {i}, b: 1}}
    expect:
      - target: result.structuredContent.result
        matcher: {{exact: {i + 1 if i != FAILING else 0}}}
""" for i in range(TESTS))
    return f"{HEAD}tools:{tests}"  # the shared example server: the shards are the point


def entrypoint(runner: Runner, **inputs: str) -> subprocess.CompletedProcess[str]:
    env = {**runner.env, **{f"INPUT_{k.upper().replace('_', '-')}": v for k, v in inputs.items()}}
    return subprocess.run([sys.executable, str(ENTRYPOINT)], cwd=runner.workspace, env=env,
                          capture_output=True, text=True, timeout=180)


@pytest.fixture(scope="module")
def sharded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A workspace after the four shard jobs (each ran the Action with `shard: i/4`), plus the
    unsharded run's md report to compare with; no shard job may have commented."""
    runner = new_runner(tmp_path_factory.mktemp("shards"))
    (runner.workspace / "suites").mkdir()
    (runner.workspace / "suites" / "demo.yml").write_text(_suite())
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        codes = [entrypoint(runner, suites="suites/*.yml", shard=f"{i}/4", comment="false",
                            output_dir=f"shard-{i}").returncode for i in range(1, 5)]
        assert gh.comments(PR) == [] and gh.requests == []
    assert sorted(codes) == [0, 0, 0, 1]  # the shard that drew `add 5` failed
    # the unsharded run to compare with: what it writes is the point, so in-process
    whole = cli("run", "suites/demo.yml", "--reporter", "md", "--output", "whole.md",
                cwd=runner.workspace)
    assert whole.returncode == 1, whole.stdout + whole.stderr
    return runner.workspace


def _merge_runner(tmp_path: Path, sharded: Path, shards: range = range(1, 5)) -> Runner:
    runner = new_runner(tmp_path)
    for i in shards:
        shutil.copytree(sharded / f"shard-{i}", runner.workspace / f"shard-{i}")
    runner.inputs(mode="merge", suites="suites/*.yml", shard_reports="shard-*/mcptest.json")
    return runner


@pytest.mark.slow  # five Action runs on the example server
@pytest.mark.xdist_group("action-merge")  # one worker: the module fixture (`sharded`, ~8 s) is built once, not on every worker
def test_four_shards_merged_post_exactly_one_comment(tmp_path: Path, sharded: Path) -> None:
    runner = _merge_runner(tmp_path, sharded)
    runner.inputs(reporters="junit")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        first = entrypoint(runner)
        again = entrypoint(runner)  # a re-run of the merge job edits the same comment
        comments = gh.comments(PR)
        methods = [m for m, _ in gh.requests]
    assert first.returncode == again.returncode == 1, first.stdout  # any failing shard fails it
    assert len(comments) == 1 and methods.count("POST") == 1 and methods.count("PATCH") == 1
    body = comments[0]["body"]
    # keyed like the unsharded run's comment (no shard), so it takes that comment's place
    assert body.startswith("<!-- mcptest-action: suites=suites/*.yml -->\n")
    whole = (sharded / "whole.md").read_text()
    header = next(line for line in whole.splitlines() if line.startswith("### "))
    assert header in body.splitlines() and "7 passed · 1 failed" in header.replace("**", "")
    row = next(line for line in whole.splitlines() if line.startswith("| ❌ |"))
    assert row in body.splitlines() and f"add {FAILING}" in row

    merged = json.loads((runner.workspace / "mcptest-results" / "mcptest.json").read_text())
    assert [t["name"] for t in merged["tests"]] == [f"add {i}" for i in range(TESTS)]
    assert merged["summary"]["exit_code"] == 1 and merged["shard"] is None
    outputs = runner.outputs
    assert (outputs["passed"], outputs["failed"], outputs["exit-code"]) == ("7", "1", "1")
    assert outputs["comment-url"] == comments[0]["html_url"]
    assert outputs["report-json"] == "mcptest-results/mcptest.json"
    sarif = json.loads((runner.workspace / outputs["sarif-file"]).read_text())
    assert len(sarif["runs"][0]["results"]) == 1
    assert header in runner.summary
    junit = (runner.workspace / "mcptest-results" / "mcptest.xml").read_text()
    assert junit.count("<testcase ") == TESTS and junit.count("<failure") == 1


@pytest.mark.slow
@pytest.mark.xdist_group("action-merge")
def test_a_missing_shard_fails_the_merge_and_says_so(tmp_path: Path, sharded: Path) -> None:
    runner = _merge_runner(tmp_path, sharded, shards=range(1, 4))
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        done = entrypoint(runner)
        comments = gh.comments(PR)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "::error title=mcptest%3A merge::missing shard(s) 4/4" in done.stdout
    assert len(comments) == 1
    for text in (comments[0]["body"], runner.summary):
        assert "could not be merged (exit 2)" in text and "missing shard(s) 4/4" in text
    outputs = runner.outputs
    assert outputs["exit-code"] == "2" and outputs["report-json"] == ""
    assert outputs["passed"] == "0" and outputs["sarif-file"] == ""


def test_no_shard_report_at_all_is_an_error_in_the_comment(runner: Runner) -> None:
    runner.inputs(mode="merge", shard_reports="shard-*/mcptest.json")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        code = run_action(runner.env, io.StringIO(), workspace=runner.workspace)
        comments = gh.comments(PR)
    assert code == 2 and runner.outputs["exit-code"] == "2"
    assert len(comments) == 1 and "no shard report found" in comments[0]["body"]
    # without `suites`, the comment is keyed by the shard-reports patterns
    assert comments[0]["body"].startswith("<!-- mcptest-action: suites=shard-*/mcptest.json -->")


@pytest.mark.parametrize(("inputs", "error"), [
    ({"INPUT_MODE": "merge"}, "input 'shard-reports' is required with 'mode: merge'"),
    ({"INPUT_MODE": "merge", "INPUT_SHARD-REPORTS": "s/*.json", "INPUT_MAX-COST": "1"},
     "input 'max-cost' applies to a run, not to 'mode: merge'"),
    ({"INPUT_MODE": "merge", "INPUT_SHARD-REPORTS": "s/*.json", "INPUT_SHARD": "1/2"},
     "input 'shard' applies to a run"),
    ({"INPUT_SUITES": "a.yml", "INPUT_SHARD-REPORTS": "s/*.json"},
     "input 'shard-reports' needs 'mode: merge'"),
    ({"INPUT_MODE": "fold", "INPUT_SUITES": "a.yml"}, "input 'mode' must be run or merge"),
])
def test_inputs_that_do_not_fit_the_mode_are_errors(inputs: dict[str, str], error: str) -> None:
    with pytest.raises(UsageError, match=error.replace("(", r"\(").replace("*", r"\*")):
        read_inputs(inputs)


def test_merge_inputs_with_the_runners_defaults_are_valid() -> None:
    env = {"INPUT_MODE": "merge", "INPUT_SHARD-REPORTS": "s/*.json", "INPUT_LINT": "false",
           "INPUT_WITH-EVALS": "false", "INPUT_FAIL-ON": "any-failure", "INPUT_MAX-COST": ""}
    got = read_inputs(env)
    assert got.mode == "merge" and got.suites == ["s/*.json"] and got.shard_reports == ["s/*.json"]


def test_shard_weights_are_passed_once_the_merged_report_exists(runner: Runner) -> None:
    """The first run has no merged report yet: shards are dealt by count, with a note."""
    fake_cli = (sys.executable, str(Path(__file__).parent / "data" / "fake_cli.py"))
    scenario = {"exit_code": 0, "report": make_report(["passed"]).model_dump(mode="json")}
    (runner.workspace / "s.json").write_text(json.dumps(scenario))
    runner.inputs(suites="s.json", shard="2/4", shard_weights="durations.json", comment="false")

    def argv() -> list[str]:
        return json.loads((runner.workspace / "fake_cli_argv.json").read_text())["argv"]

    log = io.StringIO()
    assert run_action(runner.env, log, cli=fake_cli, workspace=runner.workspace) == 0
    assert "--shard-weights" not in argv() and argv()[argv().index("--shard") + 1] == "2/4"
    assert "no shard weights yet (durations.json not found)" in log.getvalue()
    (runner.workspace / "durations.json").write_text("{}")
    assert run_action(runner.env, io.StringIO(), cli=fake_cli, workspace=runner.workspace) == 0
    assert argv()[argv().index("--shard-weights") + 1] == "durations.json"
