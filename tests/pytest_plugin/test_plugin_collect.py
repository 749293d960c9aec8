"""Which files the plugin collects and the items it makes (docs/python.md, "pytest"): suite
files by name only, one item per test and per case, tags as markers, `-k`/`-m` selection, bad
suites and options as pytest errors. Collection only: no server starts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcptest.api.options import Options
from mcptest.pytest_plugin import DEFAULT_SUITES, is_suite
from mcptest.pytest_plugin.session_state import PluginSession

REPO = Path(__file__).resolve().parents[2]
SERVER = f"""servers:
  ex:
    command: ["{sys.executable}", "{REPO / 'examples/server/example_server.py'}"]
"""


def suite(*names: str, tags: str = "[]") -> str:
    return SERVER + "tools:\n" + "".join(f"""  - name: {n}
    server: ex
    tool: greet
    args: {{name: Ada}}
    tags: {tags}
    expect:
      - target: result.content[0].text
        matcher: {{exact: "Hello, Ada!"}}
""" for n in names)


def collected(result: pytest.RunResult) -> list[str]:
    return [line for line in result.outlines if "::" in line]


def test_only_files_named_as_suites_are_collected(pytester: pytest.Pytester, session) -> None:
    pytester.makefile(".yml", mcptest_greet=suite("one", "two"))
    (pytester.path / "billing.mcptest.yaml").write_text(suite("three"), encoding="utf-8")
    pytester.makefile(".yml", suite=suite("not collected"))       # a suite, but not by name
    pytester.makefile(".yml", config="key: [unclosed")             # not YAML even; never read
    (pytester.path / "ci").mkdir()
    (pytester.path / "ci" / "mcptest.yml").write_text("on: push\n", encoding="utf-8")
    result = session("--collect-only", "-q")
    assert result.ret == 0, result.outlines
    assert collected(result) == ["billing.mcptest.yaml::three", "mcptest_greet.yml::one",
                                 "mcptest_greet.yml::two"]


def test_a_file_named_on_the_command_line_is_collected(pytester: pytest.Pytester,
                                                       session) -> None:
    pytester.makefile(".yml", suite=suite("named"))
    result = session("--collect-only", "-q", "suite.yml")
    assert collected(result) == ["suite.yml::named"]


def test_the_ini_chooses_the_suite_files(pytester: pytest.Pytester, session) -> None:
    pytester.makeini("[pytest]\nmcptest_suites = mcp/*.yml\n")
    for folder, name in (("mcp", "a"), ("other", "b")):
        (pytester.path / folder).mkdir()
        (pytester.path / folder / f"{name}.yml").write_text(suite(name), encoding="utf-8")
    assert collected(session("--collect-only", "-q")) == ["mcp/a.yml::a"]


def test_one_item_per_case_tags_as_markers_and_selection(pytester: pytest.Pytester,
                                                         session) -> None:
    pytester.makefile(".yml", mcptest_cases=SERVER + """tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: "${who}"}
    tags: [smoke, skip]
    cases:
      - {name: ada, who: Ada}
      - {name: grace, who: Grace}
      - {name: alan, who: Alan}
    expect:
      - target: result.content[0].text
        matcher: {contains: "${who}"}
  - name: adds
    server: ex
    tool: add
    args: {a: 1, b: 2}
    tags: [math]
    expect:
      - target: result.structuredContent.result
        matcher: {exact: 3}
""")
    every = collected(session("--collect-only", "-q", "--strict-markers"))
    assert every == ["mcptest_cases.yml::greets [case=ada]", "mcptest_cases.yml::greets [case=grace]",
                     "mcptest_cases.yml::greets [case=alan]", "mcptest_cases.yml::adds"]
    assert len(collected(session("--collect-only", "-q", "-m", "smoke"))) == 3
    assert collected(session("--collect-only", "-q", "-m", "math and mcptest")) == [
        "mcptest_cases.yml::adds"]
    assert collected(session("--collect-only", "-q", "-k", "grace or adds")) == [
        "mcptest_cases.yml::greets [case=grace]", "mcptest_cases.yml::adds"]
    # `skip` is pytest's own mark: that tag stays a keyword (test_plugin_run.py: it skips nothing)
    assert len(collected(session("--collect-only", "-q", "-k", "skip"))) == 3


def test_a_bad_suite_is_a_collection_error_with_file_line_and_key(pytester: pytest.Pytester,
                                                                  session) -> None:
    pytester.makefile(".yml", mcptest_bad=suite("x").replace("exact:", "exakt:"))
    result = session("-q")
    assert result.ret == pytest.ExitCode.INTERRUPTED  # collection errors stop the session
    result.stdout.fnmatch_lines([
        "*ERROR collecting mcptest_bad.yml*",
        "mcptest_bad.yml:12:19: tools[0].expect[0].matcher.exakt: unknown matcher `exakt` "
        "(did you mean `exact`?)"])
    assert "Traceback" not in result.stdout.str()


@pytest.mark.parametrize(("option", "message"), [
    ("max_cost=-1", "max_cost must be a finite number of USD, not negative; got -1.0"),
    ("tag=smoke", "mcptest option 'tag': pytest selects the tests (-k, -m)"),
    ("baseline=old.json", "mcptest option 'baseline': a baseline compares whole runs"),
    ("max_cots=1", "unknown option 'max_cots'"),
])
def test_a_bad_option_fails_the_file_with_its_message(pytester: pytest.Pytester, session,
                                                      option: str, message: str) -> None:
    pytester.makefile(".yml", mcptest_ok=suite("x"))
    result = session("-q", "--mcptest", option)
    assert result.ret != 0
    assert message in result.stdout.str()


def test_an_option_without_a_value_is_a_usage_error(pytester: pytest.Pytester,
                                                    session) -> None:
    result = session("--mcptest", "require_judge")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "mcptest option 'require_judge': write NAME=VALUE" in result.stderr.str()


def test_nothing_in_this_repository_is_a_suite_by_the_default_names() -> None:
    """Our own `pytest` (testpaths = tests) and a reader's `pytest examples/` collect no YAML
    by accident: no tracked file matches the default patterns."""
    found = [p for top in ("tests", "examples", "docs", "bench") for p in (REPO / top).rglob("*")
             if "node_modules" not in p.parts and is_suite(p, list(DEFAULT_SUITES))]
    assert found == []
    assert is_suite(Path("x/mcptest_api.yml"), list(DEFAULT_SUITES))


def test_the_session_keeps_one_ledger_for_its_files() -> None:
    """Every file's run spends from the session's one ledger (the runs are in
    test_plugin_run.py): it carries the session's cap, or none."""
    state = PluginSession(options=Options(max_cost=0.10))
    assert state.ledger.cap == pytest.approx(0.10) and state.ledger.spent == 0.0
    assert PluginSession(options=Options()).ledger.cap is None


def test_run_per_is_file_or_session(pytester: pytest.Pytester, session) -> None:
    pytester.makefile(".yml", mcptest_ok=suite("x"))
    result = session("-q", "-o", "mcptest_run_per=module")
    assert result.ret != 0
    assert "mcptest_run_per = 'module': write file or session" in result.stdout.str()
