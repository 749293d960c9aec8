"""The starter suite from tool listings: arguments from input schemas, TODO marking, and server
text that can neither break out of a comment nor be interpolated (docs/init.md)."""

from __future__ import annotations

from pathlib import Path

import yaml

from mcptest.starter.arguments import arguments_for
from mcptest.starter.discover import Catalog
from mcptest.starter.suite_text import render_suite
from mcptest.suite.load import load_suites


def test_arguments_prefer_what_the_schema_offers() -> None:
    schema = {"type": "object", "required": ["a", "b", "c", "d", "e", "f"], "properties": {
        "a": {"type": "string", "examples": ["Oslo", "Bergen"]},
        "b": {"type": "integer", "default": 7},
        "c": {"type": "string", "enum": ["fast", "slow"]},
        "d": {"const": "x"},
        "e": {"anyOf": [{"type": "null"}, {"type": "boolean", "default": True}]},
        "f": {"type": "object", "required": ["g"], "properties": {"g": {"type": "number",
                                                                       "minimum": 2.5}}},
        "optional": {"type": "string"},
    }}
    args = arguments_for(schema)
    assert args.values == {"a": "Oslo", "b": 7, "c": "fast", "d": "x", "e": True,
                           "f": {"g": 2.5}}
    assert args.todo == ["f.g"]


def test_an_enum_value_asking_for_a_failure_is_passed_over() -> None:
    """server-everything's `get-annotated-message` lists `error` first: its starter test asked
    for the sample error, and failed (issue 37)."""
    schema = {"type": "object", "required": ["kind", "mode", "only"], "properties": {
        "kind": {"type": "string", "enum": ["error", "success", "debug"]},
        "mode": {"enum": ["FAIL", "invalid-input", "Raise_Error", "ok"]},
        "only": {"enum": ["error", "failure"]},  # nothing else to pick: a person decides
    }}
    args = arguments_for(schema)
    assert args.values == {"kind": "success", "mode": "ok", "only": "error"}
    assert args.todo == ["only"]
    plain = arguments_for({"type": "object", "required": ["level"], "properties": {
        "level": {"enum": ["errors-only-report", "warning"]}}})
    assert plain.values == {"level": "errors-only-report"} and plain.todo == []


def test_typed_placeholders() -> None:
    schema = {"type": "object", "required": ["s", "i", "n", "b", "l", "m"], "properties": {
        "s": {"type": "string"}, "i": {"type": "integer"}, "n": {"type": ["number", "null"]},
        "b": {"type": "boolean"}, "l": {"type": "array", "items": {"type": "string"},
                                        "minItems": 1},
        "m": {},
    }}
    args = arguments_for(schema)
    assert args.values == {"s": "TODO: s", "i": 1, "n": 1, "b": False, "l": ["TODO: l[0]"],
                           "m": "TODO: m"}
    assert args.todo == ["s", "i", "n", "b", "l", "m"]


def test_server_text_stays_data(tmp_path: Path) -> None:
    hostile = {
        "name": "grab",
        "description": "x",
        "inputSchema": {"type": "object", "required": ["q"],
                        "properties": {"q": {"type": "string", "default": "${HOME} $${x}"}}},
    }
    catalog = Catalog(
        server_name="evil\nservers: {}\n# ",
        tools=[hostile, {"name": "wipe", "annotations": {"destructiveHint": True}},
               {"name": "plain"}],
        prompts=[{"name": "p\ntools: []", "description": "line\r\nbreak",
                  "arguments": [{"name": "x", "required": True}, {"name": "y"}]}],
        resources=[{"uri": "file:///${HOME}"}, {"name": "no uri"}],
    )
    text, tests, todo, held = render_suite("srv", {"command": ["srv"]}, catalog, "--command srv")
    assert (tests, todo, held) == (4, 1, 1)  # the destructive `wipe` is held back as a comment
    # the count init prints: the held test is a comment at the end, with its own words
    assert "The 1 test(s) tagged `todo` need you" in text
    assert all(line.startswith("#") for line in text.split("\n\n", 1)[0].splitlines())
    data = yaml.safe_load(text)
    assert set(data) == {"servers", "defaults", "tools", "resources", "prompts"}
    assert data["prompts"][0]["prompt"] == "p\ntools: []"  # a value, not YAML structure
    assert data["prompts"][0]["args"] == {"x": "TODO: x"}
    assert data["resources"] == [{"name": "file:///$${HOME} reads", "server": "srv",
                                  "uri": "file:///$${HOME}", "expect": [
                                      {"target": "result.contents",
                                       "matcher": {"schema": {"type": "array", "minItems": 1}}}]}]
    assert [t["tool"] for t in data["tools"]] == ["grab", "plain"]
    assert "#     tool: wipe" in text
    assert data["tools"][0]["args"] == {"q": "$${HOME} $$${x}"}
    path = tmp_path / "s.yml"
    path.write_text(text, encoding="utf-8")
    (suite,) = load_suites([path], env={})
    assert suite.suite.tools[0].args == {"q": "${HOME} $${x}"}  # as the server offered it
