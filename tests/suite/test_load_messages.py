"""A newcomer's first mistakes, as `mcptest validate` says them: each names the file, line,
column and key, what is wrong, and what was meant (docs/suites.md, "Errors").

Suites for the bundled example server (examples/server/example_server.py), validated in process.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cli_inproc import cli

from mcptest.suite.messages import allowed_keys, suggest_key
from mcptest.suite.models.servers import RemoteServer, StdioServer
from mcptest.suite.models.suite import Suite

SERVER = "servers:\n  example:\n    command: [python, example_server.py]\n"
GREET = "tools:\n  - name: greet\n    server: example\n    tool: greet\n"


def _validate(tmp_path: Path, text: str, name: str = "suite.yml") -> list[str]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    ran = cli("validate", name, cwd=tmp_path)
    assert (ran.returncode, ran.stdout) == (2, ""), ran
    return ran.stderr.splitlines()


def test_an_unknown_top_level_key_with_nothing_close_lists_the_valid_keys(
        tmp_path: Path) -> None:
    lines = _validate(tmp_path, SERVER + GREET.replace("tools:", "test:"))
    assert lines == ["suite.yml:4:1: test: unknown key `test` (valid keys: servers, variables, "
                     "tools, resources, prompts, lists, evals, rubrics, agents, judge, "
                     "max_score_drop, surface, lint, defaults, client, calibration, selection)"]


def test_an_unknown_top_level_key_close_to_one_is_suggested_alone(tmp_path: Path) -> None:
    lines = _validate(tmp_path, SERVER + GREET.replace("tools:", "tool:"))
    assert lines == ["suite.yml:4:1: tool: unknown key `tool` (did you mean `tools`?)"]


TOP_TYPOS = {"tool": "tools", "tols": "tools", "sever": "servers", "varables": "variables",
             "vars": "variables", "evasl": "evals", "agent": "agents", "judges": "judge",
             "calibrate": "calibration", "defualts": "defaults", "list": "lists",
             "test": None, "tests": None, "steps": None, "config": None, "env": None}
SERVER_TYPOS = {"cmd": "command", "commnd": "command", "command_line": "command",
                "timeout": "startup_timeout", "startup": "startup_timeout",
                "environment": "env", "envs": "env", "header": "headers",
                "inherit": "inherit_env", "workdir": None, "args": None, "token": None}


@pytest.mark.parametrize(("word", "meant"), [*TOP_TYPOS.items(), *SERVER_TYPOS.items()])
def test_real_typos_get_the_key_meant_and_nonsense_gets_nothing(
        word: str, meant: str | None) -> None:
    choices = allowed_keys(Suite if word in TOP_TYPOS else (StdioServer, RemoteServer))
    assert suggest_key(word, choices) == (f" (did you mean `{meant}`?)" if meant else "")


def test_an_unknown_key_under_a_server_is_named_with_the_key_meant(tmp_path: Path) -> None:
    text = SERVER.replace("command: [python, example_server.py]", "cmd: python") + GREET
    assert _validate(tmp_path, text) == [
        "suite.yml:3:5: servers.example.cmd: unknown key `cmd` (did you mean `command`?)"]
    text = SERVER.replace("    command", "    workdir: server\n    command") + GREET
    assert _validate(tmp_path, text) == [
        "suite.yml:3:5: servers.example.workdir: unknown key `workdir`"]


SCHEMA = SERVER + """\
tools:
  - name: add
    server: example
    tool: add
    args: {a: 2, b: 3}
    expect:
      - target: result.structuredContent
        matcher:
          schema:
            type: object
            properties:
              result: {type: [integer, nubmer]}
              note:
                type: string
                minLength: short
"""


def test_an_invalid_json_schema_points_at_each_wrong_key_inside_it_and_says_what_is_allowed(
        tmp_path: Path) -> None:
    where = "tools[0].expect[0].matcher.schema.properties"
    assert _validate(tmp_path, SCHEMA) == [
        f"suite.yml:15:40: {where}.result.type[1]: invalid JSON Schema: `type` must be one of"
        " array, boolean, integer, null, number, object, string, not `nubmer` (did you mean"
        " `number`?)",
        f"suite.yml:18:28: {where}.note.minLength: invalid JSON Schema: 'short' is not of type"
        " 'integer'"]


INDENTED = SERVER + GREET + "     args: {name: Ada}\n"


@pytest.mark.parametrize(("text", "line"), [
    (INDENTED, "suite.yml:8:10: tools[0].tool: invalid YAML: mapping values are not allowed in"
               " this context (is this line indented like its siblings?)"),
    (INDENTED.replace("     args", "   args"),
     "suite.yml:8:4: tools: invalid YAML: did not find expected '-' indicator (while parsing a"
     " block collection, which began on line 5, column 3; is this line indented like its"
     " siblings?)"),
    (SERVER + GREET.replace("name: greet", "name: greet: Ada"),
     "suite.yml:5:16: tools[0].name: invalid YAML: mapping values are not allowed in this"
     " context (a value holding `: ` needs quotes)"),
    (SERVER + GREET.replace("name: greet", "name:greet"),  # the cause is above: no hint
     "suite.yml:6:11: tools: invalid YAML: mapping values are not allowed in this context"),
])
def test_a_yaml_syntax_error_names_the_key_it_is_under_and_hints_where_one_is_clear(
        tmp_path: Path, text: str, line: str) -> None:
    assert _validate(tmp_path, text) == [line]
