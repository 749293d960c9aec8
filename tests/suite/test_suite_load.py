"""Loading good suites: positions of tests and assertions, interpolation, YAML 1.2 scalars,
path resolution, and errors from several files at once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from mcptest.errors import SourcePos, SuiteErrors
from mcptest.suite.load import display_path, load_suite, load_suites
from mcptest.suite.models import (
    ExactMatcher,
    LlmJuryMatcher,
    RegexMatcher,
    RubricBody,
    StdioServer,
    TreeLeaf,
)

SUITE = """\
# yaml-language-server: $schema=../schema/v1.json
variables:
  city: Oslo
  count: 3
  ratio: 0.25
  loud: true
  home: {from_env: MCPTEST_T_HOME, default: /nowhere}
  token: {from_env: MCPTEST_T_TOKEN}
servers:
  local:
    command: ./bin/server --port 1
    cwd: work
  remote:
    url: https://mcp.example.com/mcp
tools:
  - name: weather in ${city}
    server: local
    tool: forecast
    args:
      city: ${city}
      days: ${count}
      ratio: "${ratio}"
      loud: ${loud}
      note: "${city} x${count} $${city} and $$ and ${loud}"
      home: ${home}
      token: ${token}
    expect:
      - target: result.content[0].text
        matcher: {regex: "(?i)oslo"}
      - target: result.isError
        matcher:
          exact: no
  - name: second
    server: remote
    tool: ping
    timeout: 2m
    expect:
      - target: result
        matcher:
          llm-jury:
            rubric: fine
            jurors: [{model: gpt-4o}, {model: claude-sonnet-4-5}]
evals:
  - name: tree
    prompt: p
    response: r
    rubric:
      tree:
        ask: good?
        yes: {score: 1}
        no: {score: 0}
"""


@pytest.fixture
def suite_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "suites" / "work").mkdir(parents=True)
    path = tmp_path / "suites" / "s.yml"
    path.write_text(SUITE, encoding="utf-8")
    return path


def test_positions_of_tests_and_assertions(suite_file: Path) -> None:
    loaded = load_suite(Path("suites/s.yml"), env={"MCPTEST_T_TOKEN": "t0k"})
    assert loaded.display_path == "suites/s.yml"
    assert loaded.pos("tools", 0) == SourcePos("suites/s.yml", 16, 5)
    assert loaded.pos("tools", 0, "expect", 0) == SourcePos("suites/s.yml", 28, 9)
    assert loaded.pos("tools", 0, "expect", 1) == SourcePos("suites/s.yml", 30, 9)
    assert loaded.pos("tools", 1) == SourcePos("suites/s.yml", 33, 5)
    assert loaded.pos("tools", 1, "expect", 0, "matcher", "llm-jury", "jurors", 1, "model") == (
        SourcePos("suites/s.yml", 42, 47)
    )
    assert loaded.key_pos("tools", 1, "timeout") == SourcePos("suites/s.yml", 36, 5)
    # Unknown nodes fall back to the nearest ancestor; an empty path is the whole file.
    assert loaded.pos("tools", 0, "expect", 7) == loaded.pos("tools", 0, "expect")
    assert loaded.pos() == SourcePos("suites/s.yml", 2, 1)


def test_interpolation_literal_typed_escaped_and_from_env(suite_file: Path) -> None:
    loaded = load_suite(suite_file, env={"MCPTEST_T_TOKEN": "t0k"})
    test = loaded.suite.tools[0]
    assert test.name == "weather in Oslo"
    assert test.args == {
        "city": "Oslo",
        "days": 3,  # a whole-string reference keeps the variable's type
        "ratio": 0.25,
        "loud": True,
        "note": "Oslo x3 ${city} and $$ and true",
        "home": "/nowhere",  # the default: MCPTEST_T_HOME is not in env
        "token": "t0k",
    }
    with_home = load_suite(suite_file, env={"MCPTEST_T_HOME": "/h", "MCPTEST_T_TOKEN": "x"})
    assert with_home.suite.tools[0].args["home"] == "/h"


def test_typed_variable_fills_a_typed_field(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(
        "variables: {limit: 90s, th: {from_env: TH, default: 0.9}}\n"
        "servers: {s: {url: 'https://x.example/mcp', startup_timeout: '${limit}'}}\n"
        "tools:\n"
        "  - {name: t, server: s, tool: x, expect: [{target: r, matcher: {llm-judge: "
        "{rubric: ok, threshold: '${th}'}}}]}\n"
    )
    suite = load_suite(path, env={}).suite
    assert suite.servers["s"].startup_timeout == 90.0
    matcher = suite.tools[0].expect[0].matcher
    assert matcher.llm_judge.threshold == 0.9  # type: ignore[union-attr]
    # From the environment the value is text; the typed field still accepts it.
    suite = load_suite(path, env={"TH": "0.5"}).suite
    assert suite.tools[0].expect[0].matcher.llm_judge.threshold == 0.5  # type: ignore[union-attr]


def test_variables_are_not_interpolated_inside_variables_or_keys(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(
        "variables: {a: x, b: '${a}'}\n"
        "servers: {s: {url: 'https://x.example/mcp'}}\n"
        "tools: [{name: t, server: s, tool: x, args: {'${a}': '${b}'}}]\n"
    )
    assert load_suite(path, env={}).suite.tools[0].args == {"${a}": "${a}"}


def test_yaml_12_scalars_and_merge_keys(suite_file: Path) -> None:
    suite = load_suite(suite_file, env={"MCPTEST_T_TOKEN": "x"}).suite
    exact = suite.tools[0].expect[1].matcher
    assert isinstance(exact, ExactMatcher) and exact.exact == "no"  # not False
    rubric = suite.evals[0].rubric
    assert isinstance(rubric, RubricBody) and rubric.tree is not None
    assert rubric.tree.yes == TreeLeaf(score=1.0) and rubric.tree.no == TreeLeaf(score=0.0)
    assert isinstance(suite.tools[0].expect[0].matcher, RegexMatcher)
    assert isinstance(suite.tools[1].expect[0].matcher, LlmJuryMatcher)
    assert suite.tools[1].timeout == 120.0

    merged = suite_file.parent / "merged.yml"
    merged.write_text(
        "servers:\n"
        "  base: &base {url: 'https://x.example/mcp', startup_timeout: 5}\n"
        "  other:\n    <<: *base\n    startup_timeout: 7\n"
        "tools: [{name: d, server: other, tool: t, args: {day: 2024-01-02}}]\n"
    )
    loaded = load_suite(merged, env={})
    assert loaded.suite.servers["other"].startup_timeout == 7
    assert loaded.suite.tools[0].args == {"day": "2024-01-02"}  # dates stay strings
    assert loaded.pos("servers", "other", "url").line == 2  # merged value: where it was written


def test_relative_paths_resolve_against_the_suite_folder(suite_file: Path) -> None:
    server = load_suite(Path("suites/s.yml"), env={"MCPTEST_T_TOKEN": "x"}).suite.servers["local"]
    assert isinstance(server, StdioServer)
    folder = os.path.abspath("suites")
    assert server.cwd == os.path.join(folder, "work")
    assert server.command == [os.path.join(folder, "bin", "server"), "--port", "1"]


def test_bare_commands_and_absolute_paths_are_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(f"servers:\n  a: {{command: [python3, x.py], cwd: '{tmp_path}'}}\n")
    server = load_suite(path, env={}).suite.servers["a"]
    assert isinstance(server, StdioServer)
    assert server.command == ["python3", "x.py"] and server.cwd == str(tmp_path)


def test_display_path_outside_the_working_directory(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "here").mkdir()
    monkeypatch.chdir(tmp_path / "here")
    assert display_path(Path("../s.yml")) == "../s.yml"
    assert display_path(tmp_path / "here" / "a" / "s.yml") == "a/s.yml"
    assert display_path(Path("./a/../b.yml")) == "b.yml"


def test_load_suites_reports_the_errors_of_every_file(tmp_path: Path) -> None:
    good, bad1, bad2 = tmp_path / "g.yml", tmp_path / "b1.yml", tmp_path / "b2.yml"
    good.write_text("servers: {}\n")
    bad1.write_text("tools: 5\n")
    bad2.write_text("servers: {}\nservers: {}\n")
    assert [s.suite.servers for s in load_suites([good], env={})] == [{}]
    with pytest.raises(SuiteErrors) as info:
        load_suites([bad1, good, bad2], env={})
    assert [(e.pos.file.rsplit("/", 1)[-1], e.pos.line) for e in info.value.errors
            if e.pos] == [("b1.yml", 1), ("b2.yml", 2)]


def test_environment_values_never_appear_in_error_messages(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(
        "variables: {secret: {from_env: MCPTEST_T_SECRET}}\n"
        "servers: {s: {url: 'https://x.example/mcp'}}\n"
        "tools: [{name: t, server: s, tool: x, timeout: '${secret}'}]\n"
    )
    with pytest.raises(SuiteErrors) as info:
        load_suite(path, env={"MCPTEST_T_SECRET": "hunter2-very-secret"})
    text = str(info.value)
    assert "tools[0].timeout: not a duration" in text
    assert "hunter2" not in text and "***" in text


def test_a_loaded_suite_is_hashable_by_identity(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text("servers: {}\n")
    a, b = load_suite(path, env={}), load_suite(path, env={})
    assert len({a, b, a}) == 2 and a != b


def test_plain_scalars_follow_yaml_12_core_schema(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(
        "servers: {s: {url: 'https://x.example/mcp'}}\n"
        "tools:\n  - name: t\n    server: s\n    tool: x\n    args:\n"
        "      v: [012, 0o17, 0x1F, 1_000, 12:30, 1e3, .5, yes, off, True, 2024-01-02, ~]\n"
    )
    assert load_suite(path, env={}).suite.tools[0].args["v"] == [
        12, 15, 31, "1_000", "12:30", 1000.0, 0.5, "yes", "off", True, "2024-01-02", None,
    ]
