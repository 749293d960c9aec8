"""One spelling per matcher kind (docs/decisions.md): `tools-called` and `eval-rubric` are the
kinds' names in reports and docs; `tools_called` and `eval.rubric`, the spellings suites were
written with, still load, in the loader and in the published schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from mcptest.errors import SuiteErrors
from mcptest.suite.load import load_suite
from mcptest.suite.models import MATCHER_KINDS, matcher_kind
from mcptest.suite.models.kind_aliases import MATCHER_KIND_ALIASES
from mcptest.suite.positions import parse_yaml

ROOT = Path(__file__).resolve().parents[2]

SUITE = """\
servers:
  ex: {{command: [python, -c, pass]}}
rubrics:
  polite:
    criteria: [{{name: polite, description: "Is the answer polite?"}}]
agents:
  - name: plans
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada."
    expect:
      - {{target: tool_calls, matcher: {{{calls}: {{contains: [greet]}}}}}}
      - {{target: final, matcher: {{{rubric}: {{ref: polite}}}}}}
"""


def _load(tmp_path: Path, calls: str, rubric: str):
    path = tmp_path / f"{calls}-{rubric}.yml"
    path.write_text(SUITE.format(calls=calls, rubric=rubric), encoding="utf-8")
    return load_suite(path, env={})


@pytest.mark.parametrize(("calls", "rubric"), [("tools-called", "eval-rubric"),
                                               ("tools_called", "eval.rubric"),
                                               ("tools-called", "eval.rubric")])
def test_every_spelling_loads_as_the_one_kind(tmp_path: Path, calls: str, rubric: str) -> None:
    agent = _load(tmp_path, calls, rubric).suite.agents[0]
    kinds = [matcher_kind(a.matcher) for a in agent.expect]
    assert kinds == ["tools-called", "eval-rubric"]
    assert set(MATCHER_KIND_ALIASES.values()) <= set(MATCHER_KINDS)
    assert not set(MATCHER_KIND_ALIASES) & set(MATCHER_KINDS)


@pytest.mark.parametrize(("old", "new", "line", "says"), [
    ("ref: polite", "ref: politte", 13, "eval.rubric.ref: unknown rubric `politte`"),  # checks
    ("ref: polite", "ref: polite, threshold: 2", 13, "eval.rubric.threshold"),  # the model
    ("contains: [greet]", "contains: [{name: a, args: {q: {regex: '('}}}]", 12,
     "tools_called.contains[0].args: regex does not compile"),
])
def test_an_error_under_an_older_spelling_names_its_line_and_key(
        tmp_path: Path, old: str, new: str, line: int, says: str) -> None:
    path = tmp_path / "s.yml"
    path.write_text(SUITE.format(calls="tools_called", rubric="eval.rubric").replace(old, new),
                    encoding="utf-8")
    with pytest.raises(SuiteErrors) as info:
        load_suite(path, env={})
    (error,) = info.value.errors
    assert str(error).startswith(f"{path}:{line}:") and says in str(error), str(error)


def test_the_published_schema_takes_each_spelling_and_never_two_at_once() -> None:
    schema = json.loads((ROOT / "schema" / "v1.json").read_text(encoding="utf-8"))
    check = Draft202012Validator(schema)
    for calls, rubric in [("tools-called", "eval-rubric"), ("tools_called", "eval.rubric")]:
        raw = parse_yaml(SUITE.format(calls=calls, rubric=rubric), "x.yml")[0]
        assert not list(check.iter_errors(raw)), (calls, rubric)
    both = parse_yaml(SUITE.format(calls="tools-called", rubric="eval-rubric").replace(
        "{contains: [greet]}", "{contains: [greet]}, tools_called: {contains: [greet]}"),
        "x.yml")[0]
    assert list(check.iter_errors(both))
