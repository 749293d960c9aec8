"""Names the server does not have (docs/suites.md): `validate --connect` finds a wrong tool,
prompt or resource template before a run, with "did you mean"; in a run a wrong tool is said
once per test, a wrong target path is the suite's gap, and an error answer fails a test once,
with what the tool answered. All against the example server, through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server

MISSPELT_TOOL = """\
  - name: forecast, misspelt
    server: ex
    tool: forcast
    args: {city: Oslo}
    expect:
      - {target: "result.structuredContent.city", matcher: {exact: Oslo}}
      - {target: "result.content[0].text", matcher: {contains: Oslo}}
"""
WRONG_NAMES = HEAD + "tools:\n" + MISSPELT_TOOL + """\
  - name: an unknown tool on purpose
    server: ex
    tool: no_such_tool
    expect:
      - {target: result.isError, matcher: {exact: true}}
prompts:
  - name: summary
    server: ex
    prompt: incident_sumary
    args: {service: billing}
resources:
  - name: one service
    server: ex
    template: "catalog://services/{id}"
    args: {id: svc-billing}
  - name: the catalog
    server: ex
    uri: "catalog://service"
"""


def test_validate_connect_names_every_wrong_name_with_a_suggestion(tmp_path: Path) -> None:
    suite = tmp_path / "names.yml"
    suite.write_text(WRONG_NAMES, encoding="utf-8")
    assert cli("validate", suite).returncode == ExitCode.OK  # the loader cannot know
    r = cli("validate", "--connect", "names.yml", cwd=tmp_path)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stderr
    errors = [line for line in r.stderr.splitlines() if not line.startswith("warning: ")]
    assert errors == [
        "names.yml:7:11: tools[0].tool: unknown tool `forcast` on server `ex` (did you mean "
        "`forecast`?); it lists 12",
        "names.yml:20:13: prompts[0].prompt: unknown prompt `incident_sumary` on server `ex` "
        "(did you mean `incident_summary`?); it lists 1",
        "names.yml:25:15: resources[0].template: unknown resource template "
        "`catalog://services/{id}` on server `ex` (did you mean "
        "`catalog://services/{service_id}`?); it lists 1",
    ], r.stderr
    warnings = [line for line in r.stderr.splitlines() if line.startswith("warning: ")]
    assert any("tools[1].tool: unknown tool `no_such_tool`" in w and "expects an error" in w
               for w in warnings), warnings
    assert any("resources[1].uri: unknown resource `catalog://service`" in w
               and "did you mean `catalog://services`" in w for w in warnings), warnings


def test_validate_connect_passes_a_right_suite_and_says_when_a_server_is_not_ready(
    tmp_path: Path,
) -> None:
    good = tmp_path / "good.yml"
    good.write_text(HEAD + "tools:\n  - {name: g, server: ex, tool: greet, args: {name: A}}\n",
                    encoding="utf-8")
    r = cli("validate", "--connect", good)
    assert r.returncode == ExitCode.OK and r.stdout.startswith("ok: "), r.stderr
    gone = tmp_path / "gone.yml"
    gone.write_text("servers:\n  ex: {command: [no-such-program-mcptest]}\n"
                    "tools:\n  - {name: g, server: ex, tool: greet}\n", encoding="utf-8")
    r = cli("validate", "--connect", gone)
    assert r.returncode == ExitCode.SERVER_NOT_READY and "servers.ex" in r.stderr, r.stderr


def test_a_run_says_a_wrong_tool_once_and_a_wrong_path_is_the_suites_gap(tmp_path: Path) -> None:
    suite = tmp_path / "run.yml"
    suite.write_text(HEAD + "tools:\n" + MISSPELT_TOOL + """\
  - name: a misspelt path
    server: ex
    tool: forecast
    args: {city: Oslo}
    expect:
      - {target: "result.structuredContent.temp_c", matcher: {schema: {type: number}}}
      - {target: "result.structuredContent.error", matcher: {not: {exact: true}}}
  - name: an unknown tool on purpose
    server: ex
    tool: no_such_tool
    expect:
      - {target: result.isError, matcher: {exact: true}}
""", encoding="utf-8")
    r, report = run_json(suite)
    tool, path, on_purpose = report["tests"]
    assert tool["status"] == "error" and tool["gap"] == "suite" and not tool.get("assertions")
    assert tool["message"].startswith("unknown tool `forcast` on server `ex` (did you mean "
                                      "`forecast`?)")
    assert r.stdout.count("unknown tool `forcast`") == 1, r.stdout
    assert path["status"] == "failed" and path["gap"] == "suite"
    typo, absent = path["assertions"]
    assert typo["message"].startswith("target not found: `result.structuredContent.temp_c`")
    assert typo["message"].endswith("(did you mean `temperature_c`?)")
    assert absent["status"] == "failed"  # `not:` on a missing target fails: a typo never passes
    assert on_purpose["status"] == "passed"
    assert "suite: the suite names what the server does not have" in r.stdout


def test_an_error_answer_fails_a_test_once_with_what_the_tool_said(tmp_path: Path) -> None:
    """The starter's checks (mcptest init) on a call that answers isError: one failure, saying
    the error, not a second one for the structuredContent an error answer never has."""
    suite = tmp_path / "err.yml"
    suite.write_text(HEAD + """tools:
  - name: divide by zero
    server: ex
    tool: divide
    args: {a: 1, b: 0}
    expect:
      - target: result
        matcher: {schema: {type: object, properties: {isError: {const: false}}}}
      - target: result.structuredContent
        matcher: {schema: {type: object}}
""", encoding="utf-8")
    _, report = run_json(suite)
    (test,) = report["tests"]
    assert test["status"] == "failed" and test["gap"] == "tool-error"
    first, second = test["assertions"]
    assert first["status"] == "failed"
    assert 'the tool answered with an error: "' in first["message"]
    assert "division by zero" in first["message"]
    assert second["status"] == "skipped"
    assert second["message"].startswith("not checked: the tool answered with an error")


def test_without_expect_a_wrong_tool_gets_the_did_you_mean_and_an_error_its_text(
        tmp_path: Path) -> None:
    """A test with no `expect` said only "the tool answered with an error and the test has no
    expect" (issue 37): a misspelt tool now gets the suite's did-you-mean, with what the server
    said, and a real tool's error answer is quoted."""
    suite = tmp_path / "bare.yml"
    suite.write_text(HEAD + """tools:
  - name: misspelt, no expect
    server: ex
    tool: forcast
    args: {city: Oslo}
  - name: divide by zero, no expect
    server: ex
    tool: divide
    args: {a: 1, b: 0}
""", encoding="utf-8")
    _, report = run_json(suite)
    typo, divide = report["tests"]
    assert typo["status"] == "error" and typo["gap"] == "suite"
    assert typo["message"].startswith("unknown tool `forcast` on server `ex` (did you mean "
                                      "`forecast`?)")
    assert '(the call answered: "Unknown tool: forcast")' in typo["message"]
    assert divide["status"] == "failed" and divide["gap"] == "tool-error"
    assert divide["message"].startswith('the tool answered with an error and the test has no '
                                        'expect: "')
    assert "division by zero" in divide["message"]
