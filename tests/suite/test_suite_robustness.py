"""Whatever the file says, loading ends in a suite or in positioned one-line errors, never a crash."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mcptest.errors import SuiteErrors
from mcptest.suite.load import load_suite
from mcptest.suite.positions import parse_yaml

BASE = """\
variables: {city: Oslo, n: 2}
servers:
  s: {command: [python3, x.py], env: {A: {env: B}}}
  r: {url: 'https://x.example/mcp', auth: {bearer_token_env: TOK}}
rubrics:
  rb: {criteria: [{name: c, description: d, when: {regex: x}}]}
tools:
  - name: t
    server: s
    tool: x
    args: {city: '${city}'}
    expect:
      - {target: result, matcher: {all: [{regex: a}, {not: {exact: 1}}]}}
      - {target: result, matcher: {llm-jury: {rubric: ok, jurors: [{model: gpt-4o}]}}}
      - {target: jury.agreement, matcher: {schema: {minimum: 0.5}}}
evals:
  - {name: e, prompt: p, response: r, rubric: {ref: rb}, judge: {panel: [a, b]}}
  - {name: f, server: s, prompt: p, rubric: {tree: {ask: q, yes: {score: 1}, no: {score: 0}}}}
agents:
  - {name: a, models: [gpt-4o], servers: [s, r], prompt: hi, max_turns: 3}
judge: {model: m, timeout: 30s, pricing: {m: {input: 1, output: 2}}}
"""
DATA, POSITIONS, _ = parse_yaml(BASE, "base.yml")
PATHS = sorted(POSITIONS.values, key=repr)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-2, 2, allow_nan=False)
    | st.sampled_from(["", "x", "${city}", "${nope}", "(", "30s", "exact", "$${x}", "${"]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["name", "regex", "exact", "x", "ref", "url", "command"]),
                      inner, max_size=3),
    max_leaves=6,
)


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    if isinstance(data, dict):
        return {k: _replace(v, tuple(rest), value) if k == head else v for k, v in data.items()}
    return [_replace(v, tuple(rest), value) if i == head else v for i, v in enumerate(data)]


def _assert_clean(path: Path) -> None:
    try:
        load_suite(path, env={})
    except SuiteErrors as e:
        assert e.errors
        for error in e.errors:
            line = str(error)
            assert "\n" not in line
            assert error.pos is not None or "cannot read" in error.message
            assert error.pos is None or (error.pos.line >= 1 and error.pos.column >= 1)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(target=st.sampled_from(PATHS), value=json_values)
def test_any_node_replaced_by_anything(tmp_path: Path, target: tuple[Any, ...], value: Any) -> None:
    path = tmp_path / "s.yml"
    path.write_text(yaml.safe_dump(_replace(DATA, target, value), sort_keys=False))
    _assert_clean(path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(BASE)), junk=st.text(max_size=4))
def test_any_truncated_or_garbled_text(tmp_path: Path, cut: int, junk: str) -> None:
    path = tmp_path / "s.yml"
    path.write_text(BASE[:cut] + junk + BASE[cut + len(junk):], encoding="utf-8")
    _assert_clean(path)


def test_the_base_suite_is_valid(tmp_path: Path) -> None:
    path = tmp_path / "s.yml"
    path.write_text(BASE)
    assert load_suite(path, env={}).suite.agents[0].max_turns == 3


def test_a_cwd_longer_than_the_system_allows_is_a_missing_folder(tmp_path: Path) -> None:
    """Found by the fuzz test: Python 3.11's `is_dir` raises ENAMETOOLONG (exit 70 before)."""
    path = tmp_path / "s.yml"
    path.write_text("servers:\n  s: {command: [python3, x.py], cwd: '" + "9" * 400 + "'}\n")
    with pytest.raises(SuiteErrors) as info:
        load_suite(path, env={})
    assert [(x.key_path, x.message[:41]) for x in info.value.errors] == [
        ("servers.s.cwd", "working directory `" + "9" * 22)]
