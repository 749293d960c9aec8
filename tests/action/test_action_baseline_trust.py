"""Which artifacts `baseline: auto` trusts (docs/baseline.md, "Which artifacts are trusted"):
only those the base repository's own push or schedule run of the base branch stored. A fork's
pull request runs in the base repository and stores its artifacts in the same list, under the
same name, for whatever commit it likes; the stand-in's workflow runs carry `event`,
`head_repository` and `head_branch` as GitHub's description has them."""

from __future__ import annotations

import io
import zipfile
from functools import partial
from pathlib import Path

import pytest
from support.action_env import TOKEN, Runner
from support.github_openapi import operation_schema, resolve, rest_description
from support.github_server import GitHubServer
from test_action_baseline import HISTORY, MERGE_BASE, act, base_report, pr_runner

from mcptest.action.baseline import resolve_baseline
from mcptest.action.baseline_api import GitHubBaselineApi

pytestmark = pytest.mark.slow  # starts real servers or subprocesses
FORK = "fork/repo"
REFUSED_FORK = "made by a run on another repository's code (a fork)"


def test_the_fields_the_rule_reads_are_in_githubs_description() -> None:
    run = resolve(operation_schema("GET", "/repos/o/r/actions/runs/1", 200),
                  rest_description())
    assert {"event", "head_branch", "head_sha", "head_repository", "repository"} <= set(
        run["required"])
    listed = resolve(operation_schema("GET", "/repos/o/r/actions/artifacts", 200),
                     rest_description())
    artifact = resolve(listed["properties"]["artifacts"]["items"], rest_description())
    assert {"id", "repository_id", "head_repository_id", "head_branch", "head_sha"} == set(
        artifact["properties"]["workflow_run"]["properties"])


def test_a_fork_pull_request_artifact_on_the_merge_base_is_not_trusted(runner: Runner) -> None:
    pr_runner(runner, baseline="auto", fail_on="regressed")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        # the fork's PR run claims the merge-base commit, on a branch it also named `main`
        gh.baseline.add("mcptest-report", MERGE_BASE, base_report(flag="off"), False,
                        "2026-11-20T10:05:00Z", event="pull_request", head_repository=FORK)
        code, log, body = act(runner, gh)
        downloads = gh.baseline.blob_authorizations
    assert code == 1, log  # the failing test fails the run: nothing excused it
    assert downloads == []  # refused before anything was fetched
    assert "Compared with the baseline" not in body
    assert f"refused: {MERGE_BASE[:7]}: {REFUSED_FORK}" in log


def test_a_newer_fork_artifact_does_not_shadow_the_push_runs(runner: Runner) -> None:
    pr_runner(runner, baseline="auto", fail_on="regressed")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        gh.baseline.add("mcptest-report", MERGE_BASE, base_report(), False,
                        "2026-11-20T10:05:00Z")
        gh.baseline.add("mcptest-report", MERGE_BASE, base_report(flag="off"), False,
                        "2026-11-20T11:00:00Z", event="pull_request", head_repository=FORK)
        code, log, body = act(runner, gh)
    assert code == 1 and "Regressed: 1" in body, log  # the push run's report was the baseline
    assert f"baseline: the run on the merge-base {MERGE_BASE[:7]}; refused: {MERGE_BASE[:7]}: " \
           f"{REFUSED_FORK}" in log


@pytest.mark.parametrize(("event", "branch", "trusted", "why"), [
    ("pull_request", "main", False, "made by a pull_request run, not a push or schedule run"),
    ("workflow_run", "main", False, "made by a workflow_run run"),
    ("push", "feature", False, "made by a run of another branch than main"),
    ("schedule", "main", True, ""),
])
def test_only_push_and_schedule_runs_of_the_base_branch(runner: Runner, event: str,
                                                       branch: str, trusted: bool,
                                                       why: str) -> None:
    pr_runner(runner, baseline="auto", fail_on="regressed")
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        gh.baseline.add("mcptest-report", MERGE_BASE, base_report(), False,
                        "2026-11-20T10:05:00Z", event=event, head_branch=branch)
        _, log, body = act(runner, gh)  # exit 1 either way: regressed, or failing with none
    assert ("Regressed: 1" in body) is trusted, log
    assert why in log


def test_storage_that_never_stops_is_cut_off_by_the_deadline(runner: Runner) -> None:
    pr_runner(runner, baseline="auto")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("mcptest.json", "{}" + " " * 4096)
    with GitHubServer(token=TOKEN) as gh:
        gh.baseline.commits, gh.baseline.merge_base = HISTORY, MERGE_BASE
        gh.baseline.add("mcptest-report", MERGE_BASE, buffer.getvalue(), False,
                        "2026-11-20T10:05:00Z", drip_s=0.2)  # one byte every 0.2 s: ~15 min
        env = {**runner.env, "GITHUB_API_URL": gh.url}
        choice = resolve_baseline("auto", "mcptest-report", env, runner.workspace,
                                  "mcptest-results", TOKEN,
                                  api=partial(GitHubBaselineApi, deadline_s=3.0,
                                              read_timeout_s=1.0))
    assert choice.path is None
    assert choice.note is not None and "still arriving after the baseline search's time ran " \
        "out" in choice.note
    assert not (Path(runner.workspace) / "mcptest-results" / "baseline.json").exists()
