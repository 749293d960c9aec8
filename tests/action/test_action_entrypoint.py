"""entrypoint.py as GitHub runs it: a subprocess with INPUT_*, an event file, outputs and summary
files, and GITHUB_API_URL at the loopback GitHub server, against the real CLI and example server.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.action_env import PR, TOKEN, Runner, live_commands
from support.cli_run import HEAD
from support.github_server import GitHubServer

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ENTRYPOINT = ROOT / "entrypoint.py"
HOSTILE_SERVER = Path(__file__).parent / "data" / "hostile_server.py"

EXAMPLE_SERVER = ROOT / "examples" / "server" / "example_server.py"
DEMO = HEAD.replace("\n  ex:\n", "\n  demo:\n")
"""The test process's shared example server as `demo`: a server process is not the point."""
DEMO_STDIO = f"""servers:
  demo:
    command: [{sys.executable}, {EXAMPLE_SERVER}]
"""
"""Its own process, for a test that sets the server's environment."""
TOOLS = """\
tools:
  - name: adds two numbers
    server: demo
    tool: add
    args: {{a: 2, b: 3}}
    expect:
      - target: result.structuredContent.result
        matcher: {{exact: {expected}}}
"""
HOSTILE = """\
servers:
  hostile:
    command: [{python}, {hostile}]
tools:
  - name: hostile text stays text
    server: hostile
    tool: shout
    args: {{text: "::error::owned"}}
    expect:
      - target: result.content[0].text
        matcher: {{contains: "::error::owned"}}
"""


def write_suite(runner: Runner, expected: int, *, hostile: bool = False,
                stdio: bool = False) -> None:
    (runner.workspace / "suites").mkdir(exist_ok=True)
    (runner.workspace / "suites" / "demo.yml").write_text(
        (DEMO_STDIO if stdio else DEMO) + TOOLS.format(expected=expected))
    if hostile:
        (runner.workspace / "suites" / "hostile.yml").write_text(
            HOSTILE.format(python=sys.executable, hostile=HOSTILE_SERVER))


def entrypoint(runner: Runner, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(ENTRYPOINT), *args], cwd=runner.workspace,
                          env=runner.env, capture_output=True, text=True, timeout=120)


def test_fail_then_pass_updates_one_comment(runner: Runner) -> None:
    write_suite(runner, expected=6, hostile=True)
    runner.inputs(suites="suites/*.yml", max_cost="0.25")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        first = entrypoint(runner)
        after_first = gh.comments(PR)
        write_suite(runner, expected=5, hostile=True)
        second = entrypoint(runner)
        after_second = gh.comments(PR)
        methods = [m for m, _ in gh.requests]

    assert first.returncode == 1, first.stdout + first.stderr
    assert second.returncode == 0, second.stdout + second.stderr
    assert len(after_first) == 1 and len(after_second) == 1
    assert after_first[0]["id"] == after_second[0]["id"]
    assert methods.count("POST") == 1 and methods.count("PATCH") == 1
    assert after_second[0]["body"].startswith("<!-- mcptest-action: suites=suites/*.yml -->")

    groups = [x for x in live_commands(first.stdout) if x.startswith("::group::")]
    assert groups == ["::group::mcptest · suites/demo.yml · demo: 1 test(s), 1 failed",
                      "::group::mcptest · suites/hostile.yml · hostile: 1 test(s), all passed"]
    live = [x for x in live_commands(first.stdout)
            if not x.startswith(("::group::", "::endgroup::"))]
    assert live and all(line.startswith("::error file=suites/demo.yml,line=") for line in live)
    assert "owned from server stderr" not in " ".join(live)
    assert TOKEN not in first.stdout + first.stderr + second.stdout + runner.summary

    outputs = runner.outputs  # the second run's values (appended last)
    assert outputs["passed"] == "2" and outputs["failed"] == "0"
    assert outputs["exit-code"] == "0" and outputs["cost"] == "0.000000"
    assert outputs["report-json"] == "mcptest-results/mcptest.json"
    assert outputs["comment-url"] == after_second[0]["html_url"]
    assert (runner.workspace / "mcptest-results" / "mcptest.json").is_file()
    assert runner.summary.count("mcptest") >= 2  # one summary per run, appended


def test_fork_token_warns_and_keeps_the_suites_exit_code(runner: Runner) -> None:
    write_suite(runner, expected=6)
    runner.inputs(suites="suites/demo.yml")
    with GitHubServer(token=TOKEN, read_only=True) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        done = entrypoint(runner)
        assert gh.comments(PR) == []
    assert done.returncode == 1
    warnings = [x for x in live_commands(done.stdout) if x.startswith("::warning")]
    assert len(warnings) == 1 and "403" in warnings[0]
    assert runner.outputs["exit-code"] == "1" and runner.outputs["comment-url"] == ""


def test_arguments_mean_the_plain_cli_on_the_examples(runner: Runner) -> None:
    runner.env["MCPTEST_PYTHON"] = sys.executable  # the interpreter examples/basics.yml starts
    basics = str(ROOT / "examples" / "basics.yml")
    done = entrypoint(runner, "run", basics, "--reporter", "json", "--output", "r.json")
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads((runner.workspace / "r.json").read_text())
    assert report["summary"]["counts"]["passed"] == report["summary"]["counts"]["total"] > 0
    assert "::stop-commands::" not in done.stdout
    assert Path(runner.env["GITHUB_OUTPUT"]).read_text() == ""


def test_lint_input_leads_the_comment_and_fails_on_a_poisoned_tool(runner: Runner) -> None:
    write_suite(runner, expected=5, stdio=True)
    suite = runner.workspace / "suites" / "demo.yml"
    suite.write_text(suite.read_text().replace(
        "    command:", "    env: {MCPTEST_EXAMPLE_POISONED: \"1\"}\n    command:"))
    runner.inputs(suites="suites/demo.yml", lint="true")
    with GitHubServer(token=TOKEN) as gh:
        runner.env["GITHUB_API_URL"] = gh.url
        done = entrypoint(runner)
        comments = gh.comments(PR)
    assert done.returncode == 1, done.stdout + done.stderr
    outputs = runner.outputs
    assert outputs["passed"] == "1" and outputs["exit-code"] == "1"
    assert outputs["era"] == "demo=dual-era"  # both handshakes answered
    assert outputs["lint-sarif-file"] == "mcptest-results/mcptest-lint.sarif"
    assert (runner.workspace / "mcptest-results" / "mcptest-lint.sarif").is_file()
    body = comments[0]["body"]
    assert "### Lint" in body and "injection-hidden-instructions" in body
    assert body.index("### Lint") < body.index("adds two numbers")
