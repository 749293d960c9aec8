"""The published JSON Schemas: in sync with the models, valid, and agreeing with the loader."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mcptest.cli.main import main
from mcptest.suite.load import load_suite
from mcptest.suite.positions import parse_yaml
from mcptest.suite.schema import (
    REGENERATE,
    REPORT_SCHEMA_ID,
    SUITE_SCHEMA_ID,
    published_files,
    stale_files,
)
from mcptest.suite.schema import main as schema_main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.yml"))


def _schema(name: str) -> dict:
    return json.loads((ROOT / "schema" / name).read_text(encoding="utf-8"))


def _raw(text: str) -> dict:
    """The file as an editor sees it: our YAML reading, no interpolation."""
    return parse_yaml(text, "x.yml")[0]


def test_published_schemas_are_up_to_date() -> None:
    stale = stale_files(ROOT)
    assert not stale, f"stale schema files {[str(p) for p in stale]}; run `{REGENERATE}`"
    assert len(published_files(ROOT)) == 4


@pytest.mark.parametrize(("name", "schema_id"), [("v1.json", SUITE_SCHEMA_ID),
                                                 ("report-v1.json", REPORT_SCHEMA_ID)])
def test_schemas_are_valid_draft_2020_12(name: str, schema_id: str) -> None:
    schema = _schema(name)
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["$id"] == schema_id
    assert schema["title"] and schema["description"]
    assert (ROOT / "src" / "mcptest" / "schemas" / name).read_text() == (
        ROOT / "schema" / name).read_text()


def test_there_are_examples() -> None:
    assert EXAMPLES, "examples/*.yml is empty"


@pytest.mark.parametrize("example", EXAMPLES, ids=lambda p: p.name)
def test_every_example_validates_against_the_schema_and_loads(example: Path) -> None:
    validator = Draft202012Validator(_schema("v1.json"))
    errors = [f"{list(e.absolute_path)}: {e.message}"
              for e in validator.iter_errors(_raw(example.read_text(encoding="utf-8")))]
    assert errors == []
    load_suite(example, env={})


def test_schema_uses_yaml_keys_and_accepts_what_the_loader_accepts() -> None:
    validator = Draft202012Validator(_schema("v1.json"))
    good = _raw(
        "servers:\n"
        "  a: {command: python3 server.py, startup_timeout: 30s}\n"
        "  b: {url: 'https://x.example/mcp', http: {timeout: 1.5}}\n"
        "tools:\n"
        "  - name: t\n    server: a\n    tool: x\n    timeout: 500ms\n    expect:\n"
        "      - {target: r, matcher: {schema: {type: object}}}\n"
        "      - {target: r, matcher: {llm-jury: {rubric: ok, jurors: [{model: m}]}}}\n"
        "      - {target: r, matcher: {not: {regex: x}}}\n"
        "evals:\n"
        "  - {name: e, prompt: p, rubric: {tree: {ask: q, yes: {score: 1}, no: {score: 0}}}}\n"
    )
    assert list(validator.iter_errors(good)) == []
    for bad in (
        "varables: {}\n",
        "servers: {a: {command: [x], cwd: 5}}\n",
        "servers: {a: {command: [x], startup_timeout: soon}}\n",
        "tools: [{name: t, server: a, tool: x, expect: [{target: r, matcher: {exact: 1, "
        "contains: 1}}]}]\n",
        "servers: {a: {url: 'ftp://x'}}\n",
    ):
        assert list(validator.iter_errors(_raw(bad))), bad


@pytest.mark.parametrize(("argv", "name"), [(["schema"], "v1.json"),
                                            (["schema", "--report"], "report-v1.json")])
def test_schema_command_prints_the_published_schema(
    argv: list[str], name: str, capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert out == (ROOT / "schema" / name).read_text(encoding="utf-8")


def test_the_schema_files_are_found_from_the_checkout_not_from_the_module(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An installed package has no repository around it: the package's own copies are checked
    alone, and the regenerating script names the checkout it needs instead of guessing one."""
    assert stale_files(None) == []  # the package's two copies, nothing outside the package
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as stopped:
        schema_main(["--check"])
    assert stopped.value.code == 2
    assert f"{tmp_path} is not a source checkout (no pyproject.toml)" in capsys.readouterr().err
    assert not (tmp_path / "schema").exists()
