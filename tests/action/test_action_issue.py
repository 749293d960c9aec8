"""`report-to: issue` against the loopback GitHub server: the first failing run opens the
tracking issue, the next updates it, a passing run closes it; never a second one
(docs/action.md, "Nightly tracking issue")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reports import make_report
from support.action_env import TOKEN, Runner, live_commands
from support.github_server import GitHubServer
from test_action_flow import act, scenario

from mcptest.action.issue import issue_marker


def _nightly(runner: Runner) -> None:
    Path(runner.env["GITHUB_EVENT_PATH"]).write_text(json.dumps({"schedule": "0 3 * * *"}))
    runner.env.update(GITHUB_EVENT_NAME="schedule", GITHUB_RUN_ID="4242",
                      GITHUB_SERVER_URL="https://github.com")
    runner.inputs(suites="suite.json", report_to="issue")


def _run(runner: Runner, code: int, statuses: list) -> tuple[int, str]:
    scenario(runner, "suite.json", code, make_report(statuses).model_dump(mode="json"))
    return act(runner)


@pytest.mark.slow
def test_open_update_close_and_never_a_second(runner: Runner) -> None:
    _nightly(runner)
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        assert _run(runner, 1, ["passed", "failed"])[0] == 1
        (opened,) = gh.issues()
        assert opened["state"] == "open" and [x["name"] for x in opened["labels"]] == ["mcptest"]
        assert opened["body"].splitlines()[0] == issue_marker(["suite.json"])
        assert "test 1" in opened["body"] and "actions/runs/4242" in opened["body"]
        assert runner.outputs["issue-url"] == opened["html_url"]

        assert _run(runner, 1, ["failed", "failed"])[0] == 1
        (updated,) = gh.issues()
        assert updated["number"] == opened["number"] and updated["body"] != opened["body"]
        assert runner.outputs["issue-url"] == opened["html_url"]

        assert _run(runner, 0, ["passed", "passed"])[0] == 0
        (closed,) = gh.issues()
        assert (closed["state"], closed["state_reason"]) == ("closed", "completed")
        assert "All tests pass again" in gh.comments(opened["number"])[0]["body"]
        assert runner.outputs["issue-url"] == ""

        assert _run(runner, 0, ["passed"])[0] == 0  # passing with nothing open: no request
        assert [m for m, _ in gh.requests].count("POST") == 2  # the issue and the comment
        methods = [(m, p.split("?")[0]) for m, p in gh.requests]
        assert methods.count(("POST", "/repos/octo/repo/issues")) == 1


def test_someone_elses_issue_and_pull_requests_are_left_alone(runner: Runner) -> None:
    _nightly(runner)
    body = issue_marker(["suite.json"]) + "\nsomeone pasted our marker"
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        theirs = gh.seed_issue("copy", body, "mallory", ["mcptest"])
        pull = gh.seed_issue("a PR", body, "github-actions[bot]", ["mcptest"], pull_request=True)
        assert _run(runner, 1, ["failed"])[0] == 1
        issues = {i["number"]: i for i in gh.issues()}
    assert issues[theirs]["body"] == body and issues[pull]["body"] == body
    (ours,) = [i for n, i in issues.items() if n not in (theirs, pull)]
    assert ours["user"]["login"] == "github-actions[bot]"


def test_read_only_token_warns_and_keeps_the_exit_code(runner: Runner) -> None:
    _nightly(runner)
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        code, log = _run(runner, 1, ["failed"])
        assert gh.issues() == []
    assert code == 1 and runner.outputs["issue-url"] == ""
    warnings = [x for x in live_commands(log) if x.startswith("::warning")]
    assert any("tracking issue" in w and "issues: write" in w for w in warnings)
    assert TOKEN not in log


def test_unknown_target_is_an_input_error(runner: Runner) -> None:
    runner.inputs(suites="suite.json", report_to="issue, slack")
    code, log = act(runner)
    assert code == 2 and "input 'report-to' has unknown target(s) slack" in log
