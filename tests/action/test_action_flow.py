"""The whole Action in-process, with a stand-in CLI that writes a canned report.

These tests pin the Action's own behaviour (command line it builds, outputs, summary,
annotations, stop-commands, comment, exit code) independent of the runner; the subprocess tests
in test_action_entrypoint.py drive entrypoint.py against the real CLI and example server.
"""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pytest
from reports import make_report
from support.action_env import PR, TOKEN, Runner, live_commands
from support.github_events import push_event
from support.github_server import GitHubServer

from mcptest.action.job_summary import reporter_available
from mcptest.action.main import run_action

FAKE_CLI = (sys.executable, str(Path(__file__).parent / "data" / "fake_cli.py"))
HOSTILE = "::error::owned\n::set-output name=passed::999\n::add-mask::x\n"


def scenario(runner: Runner, name: str, exit_code: int, report: object, stdout: str = "") -> None:
    data = {"exit_code": exit_code, "stdout": stdout, "stderr": HOSTILE, "report": report}
    (runner.workspace / name).write_text(json.dumps(data))


def act(runner: Runner) -> tuple[int, str]:
    out = io.StringIO()
    code = run_action(runner.env, out, cli=FAKE_CLI, workspace=runner.workspace)
    return code, out.getvalue()


def test_failing_run_outputs_summary_annotations_comment(runner: Runner) -> None:
    report = make_report(["passed", "passed", "failed", "skipped", "deferred"])
    scenario(runner, "suite.json", 1, report.model_dump(mode="json"), stdout=HOSTILE)
    runner.inputs(suites="suite.json", max_cost="0.5", concurrency="3", reporters="junit",
                  with_evals="true")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        code, log = act(runner)
        comments = gh.comments(PR)

    assert code == 1
    out = runner.outputs
    assert out == {
        "passed": "2", "failed": "1", "skipped": "1", "deferred": "1", "cost": "0.012500",
        "exit-code": "1",
        "sarif-file": "mcptest.sarif" if reporter_available("sarif") else "",
        "report-json": "mcptest-results/mcptest.json", "comment-url": comments[0]["html_url"],
        "era": "", "lint-sarif-file": "",
        "issue-url": "",
    }
    assert "mcptest" in runner.summary and "test 2" in runner.summary
    argv = json.loads((runner.workspace / "fake_cli_argv.json").read_text())
    assert argv["argv"][:2] == ["run", "suite.json"]
    joined = " ".join(argv["argv"])
    assert "--reporter json --output mcptest-results/mcptest.json" in joined
    assert "--reporter junit --output mcptest-results/mcptest.xml" in joined
    assert "--max-cost 0.5" in joined and "--concurrency 3" in joined
    assert "--with-evals" in argv["argv"]
    assert "INPUT_GITHUB-TOKEN" not in argv["env"]  # the token never reaches the CLI or servers

    live = [line for line in live_commands(log)
            if not line.startswith(("::group::", "::endgroup::"))]  # test_action_groups.py
    assert [line.split(" ", 1)[0] for line in live] == ["::error", "::warning", "::notice"]
    assert live[0].startswith("::error file=suites/demo.yml,line=16,col=9,title=mcptest failed")
    assert not any("owned" in line or "set-output" in line or "add-mask" in line for line in live)
    assert log.count("::error::owned") == 2  # echoed (stdout and stderr), both inside the block
    assert TOKEN not in log and TOKEN not in runner.summary

    assert len(comments) == 1 and comments[0]["body"].startswith("<!-- mcptest-action: suites=")


def test_second_run_updates_the_same_comment(runner: Runner) -> None:
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"))
    runner.inputs(suites="suite.json")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        assert act(runner)[0] == 0
        scenario(runner, "suite.json", 1,
                 make_report(["passed", "failed"]).model_dump(mode="json"))
        assert act(runner)[0] == 1
        comments = gh.comments(PR)
        methods = [m for m, _ in gh.requests]
    assert len(comments) == 1 and "1 failed" in comments[0]["body"].replace("**", "")
    assert methods.count("POST") == 1 and methods.count("PATCH") == 1
    urls = [v for k, v in _all_outputs(runner) if k == "comment-url"]
    assert len(urls) == 2 and urls[0] == urls[1] != ""


def _all_outputs(runner: Runner) -> list[tuple[str, str]]:
    """Every (name, value) appended to the outputs file, in order (parse_outputs keeps the last)."""
    text = Path(runner.env["GITHUB_OUTPUT"]).read_text()
    found = re.findall(r"^([\w-]+)<<(\S+)\n(.*?)\n\2$", text, flags=re.M | re.S)
    return [(name, value) for name, _, value in found]


def test_fork_token_warns_and_keeps_the_exit_code(runner: Runner) -> None:
    scenario(runner, "suite.json", 1, make_report(["failed"]).model_dump(mode="json"))
    runner.inputs(suites="suite.json")
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        code, log = act(runner)
        assert gh.comments(PR) == []
    assert code == 1 and runner.outputs["exit-code"] == "1"
    assert runner.outputs["comment-url"] == ""
    warnings = [x for x in live_commands(log) if x.startswith("::warning")]
    assert any("PR comment" in w and "403" in w for w in warnings)


def test_passing_run_with_fork_token_still_passes(runner: Runner) -> None:
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"))
    runner.inputs(suites="suite.json")
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        assert act(runner)[0] == 0


def test_no_pr_means_no_comment(runner: Runner) -> None:
    Path(runner.env["GITHUB_EVENT_PATH"]).write_text(json.dumps(push_event()))
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"))
    runner.inputs(suites="suite.json")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        assert act(runner)[0] == 0
        assert gh.requests == []
    assert runner.outputs["comment-url"] == ""


def test_comment_mode_off_and_recreate(runner: Runner) -> None:
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"))
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        runner.inputs(suites="suite.json", comment_mode="off")
        act(runner)
        assert gh.requests == []
        runner.inputs(comment_mode="update")
        act(runner)
        first = gh.comments(PR)[0]["id"]
        runner.inputs(comment_mode="recreate")
        act(runner)
        assert [c["id"] for c in gh.comments(PR)] != [first] and len(gh.comments(PR)) == 1


def test_bad_input_is_exit_2_with_an_error(runner: Runner) -> None:
    runner.inputs(suites="suite.json", max_cost="cheap")
    code, log = act(runner)
    assert code == 2 and runner.outputs == {"exit-code": "2"}
    assert log.startswith("::error title=mcptest%3A invalid input::input 'max-cost'")


def test_glob_matching_nothing_is_an_input_error(runner: Runner) -> None:
    runner.inputs(suites="suites/**/*.yml")
    code, log = act(runner)
    assert code == 2 and "matched no files" in log


def test_globs_expand_in_the_working_directory(runner: Runner) -> None:
    sub = runner.workspace / "svc" / "suites"
    sub.mkdir(parents=True)
    scenario(runner, "svc/suites/a.json", 0, make_report(["failed"]).model_dump(mode="json"))
    (sub / "b.json").write_text("{}")
    runner.inputs(suites="suites/*.json\nsuites/a.json", working_directory="svc")
    code, log = act(runner)
    argv = json.loads((runner.workspace / "svc" / "fake_cli_argv.json").read_text())["argv"]
    assert argv[:3] == ["run", "suites/a.json", "suites/b.json"]
    assert code == 0 and runner.outputs["report-json"] == "svc/mcptest-results/mcptest.json"
    assert "::error file=svc/suites/demo.yml" in log  # annotation paths are repo-relative


def test_run_without_a_report_still_summarises(runner: Runner) -> None:
    scenario(runner, "suite.json", 3, None)
    runner.inputs(suites="suite.json", comment="false")
    code, _ = act(runner)
    assert code == 3
    assert runner.outputs["exit-code"] == "3" and runner.outputs["report-json"] == ""
    assert "server never became ready" in runner.summary


def test_echoed_output_keeps_multibyte_text_whole(runner: Runner) -> None:
    text = "ünïcødé ✓ 😀 " * 20_000  # far more than one pipe read, so reads split characters
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"), text)
    runner.inputs(suites="suite.json", comment="false")
    _, log = act(runner)
    assert "\ufffd" not in log and text in log


def test_a_run_without_a_report_never_reads_the_last_runs(runner: Runner) -> None:
    runner.inputs(suites="suite.json", comment="false")
    scenario(runner, "suite.json", 1, make_report(["failed"]).model_dump(mode="json"))
    assert act(runner)[0] == 1
    assert (runner.workspace / "mcptest-results" / "mcptest.json").is_file()
    scenario(runner, "suite.json", 2, None)  # e.g. the suite became invalid
    code, log = act(runner)
    assert code == 2 and runner.outputs["report-json"] == ""
    assert runner.outputs["failed"] == "0" and "::error file=" not in log
    assert runner.summary.rstrip().endswith("The step log has the details.")


def test_a_failing_md_reporter_costs_the_rich_summary_not_the_step(
    runner: Runner, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(report: object) -> str:
        raise RuntimeError("template bug")

    monkeypatch.setattr("mcptest.action.main.report_markdown", broken)
    scenario(runner, "suite.json", 0, make_report(["passed"]).model_dump(mode="json"))
    runner.inputs(suites="suite.json", comment="false")
    code, log = act(runner)
    assert code == 0 and runner.outputs["exit-code"] == "0"
    assert "::warning::the md reporter failed (RuntimeError)" in log
    assert runner.summary.startswith("### ✅ mcptest · 1 passed")


def test_a_report_the_disk_refused_is_not_shown_as_green(runner: Runner) -> None:
    """The CLI's exit 74 (a report it could not write) with the run's own report passing: the
    summary and the comment say so above the report's green header, and the log has an
    error annotation (the report's own code is the run's, 0 here)."""
    from mcptest.action.main import UNWRITTEN

    report = make_report(["passed", "passed"])
    scenario(runner, "suite.json", 74, report.model_dump(mode="json"))
    runner.inputs(suites="suite.json")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        code, log = act(runner)
        comments = gh.comments(PR)
    assert code == 74 and runner.outputs["exit-code"] == "74"
    assert runner.summary.startswith(f"> [!WARNING]\n> {UNWRITTEN}\n\n")
    assert comments[0]["body"].count(UNWRITTEN) == 1
    assert f"::error::{UNWRITTEN}" in live_commands(log)
