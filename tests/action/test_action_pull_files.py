"""A fork's pull request in the Action where git cannot tell what changed (no history in the
checkout, as the Action's image has no git and checkouts are shallow): the pull request's
changed files come from the GitHub API (`GET /pulls/{n}/files`), so only the listed cassette
counts as changed (docs/cassettes.md, "What is trusted"; action/pull_files.py). The real CLI
replays model cassettes recorded once from the loopback judge; the loopback GitHub server
answers every request as GitHub's description allows."""

from __future__ import annotations

import html
import io
import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.action_env import PR, TOKEN, Runner
from support.cli_inproc import cli
from support.cli_run import POLITE_PAIR
from support.github_events import pull_request_event
from support.github_server import GitHubServer
from support.judge_server import JudgeServer, Verdict

from mcptest.action.main import run_action

pytestmark = pytest.mark.slow  # the example server and the CLI as a process
HEAD_SHA = "e" * 40
SUITE = POLITE_PAIR


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The suite and its two cassettes, recorded once from the loopback judge (both pass)."""
    root = tmp_path_factory.mktemp("recorded")
    (root / "judged.yml").write_text(SUITE, encoding="utf-8")
    with JudgeServer() as js:
        js.script("judge-x", Verdict(score=0.9, reason="polite"))
        done = cli("run", "judged.yml", "--no-cache", "--models", "record", cwd=root,
                   env=js.gateway_env())
    assert done.returncode == 0, done.stdout + done.stderr
    yield root


def tape(workspace: Path, who: str) -> str:
    """The repository-relative path of `who`'s cassette."""
    [found] = (workspace / "cassettes" / "judged").glob(f"tool-greets-{who.lower()}-*.json")
    return found.relative_to(workspace).as_posix()


def fork_pr(runner: Runner, recorded: Path) -> Runner:
    shutil.copytree(recorded, runner.workspace, dirs_exist_ok=True)  # files, no git history
    Path(runner.env["GITHUB_EVENT_PATH"]).write_text(json.dumps(pull_request_event(
        PR, head_repo="fork/repo", head_sha=HEAD_SHA)))
    runner.env.update(GITHUB_BASE_REF="main", GITHUB_HEAD_REF="feature")
    runner.inputs(suites="judged.yml", models="replay")
    return runner


def act(runner: Runner, gh: GitHubServer) -> tuple[int, str, str, dict[str, Any]]:
    """Exit code, log, the job summary (the comment's text: a fork's token cannot post it)
    and the report's rows by name."""
    runner.env["GITHUB_API_URL"] = gh.url
    out = io.StringIO()
    code = run_action(runner.env, out, workspace=runner.workspace)
    body = html.unescape(runner.summary).replace("\u200d", "")  # `#\u200d7`: no issue link
    report = json.loads((runner.workspace / "mcptest-results" / "mcptest.json").read_text())
    return code, out.getvalue(), body, {t["name"]: t for t in report["tests"]}


def test_only_the_cassette_the_pull_request_lists_counts_as_changed(
        runner: Runner, recorded: Path) -> None:
    fork_pr(runner, recorded)
    changed, kept = tape(runner.workspace, "Bob"), tape(runner.workspace, "Ada")
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=[
            "README.md", changed, ("docs/new-name.md", "docs/old-name.md"),
            *(f"src/f{i}.py" for i in range(150))])  # two pages of 100
        code, log, body, rows = act(runner, gh)
        asked = [path for method, path in gh.requests if "/pulls/" in path]

    assert rows["greets Ada politely"]["status"] == "passed", log  # an unchanged cassette
    bob = rows["greets Bob politely"]
    assert bob["status"] == "failed" and bob["gap"] == "replay"
    assert f"replayed from a cassette this pull request changed ({changed}): not a pass" in (
        bob["message"])
    assert code == 1
    assert f"evidence this pull request changed: {changed} (a model cassette; 1 verdict(s) " \
           "rest on it; not trusted here)" in body, body
    assert kept not in body
    said = ("which cassettes and records changed since origin/main was taken from the GitHub "
            "API's changed-file list of pull request #7 (154 path(s); git could not tell: ")
    assert said in body, body
    assert asked == ["/repos/octo/repo/pulls/7",
                     "/repos/octo/repo/pulls/7/files?per_page=100&page=1",
                     "/repos/octo/repo/pulls/7/files?per_page=100&page=2",
                     "/repos/octo/repo/pulls/7"]
    listed = json.loads((runner.workspace / "mcptest-results/changed-files.json").read_text())
    assert "docs/old-name.md" in listed["files"]  # a renamed file under both names


def test_a_token_that_cannot_read_pull_requests_falls_back_with_a_warning(
        runner: Runner, recorded: Path) -> None:
    fork_pr(runner, recorded)
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        gh.pulls.open(PR, head_sha=HEAD_SHA, files=[tape(runner.workspace, "Bob")])
        gh.pulls.forbidden = True
        code, log, body, rows = act(runner, gh)

    assert "::warning title=mcptest%3A changed evidence::git could not tell which cassettes " \
           "and records this pull request changed, nor could the GitHub API (GET " \
           "/pulls/7: HTTP 403): every one counts as changed, so no replay passes" in log, log
    assert code == 1
    assert {r["status"] for r in rows.values()} == {"failed"}  # today's behaviour: fail safe
    assert "every one is treated as changed, so none is trusted" in body
    assert not (runner.workspace / "mcptest-results/changed-files.json").exists()
