"""Suites drawn from the published JSON Schema, and mutations of them, load or fail cleanly.

Every drawn suite is written as YAML and loaded: it is a suite, or `SuiteErrors` whose every
line is positioned and single; never another exception, and each file loads within the
2-second deadline hypothesis enforces per example.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.schema_strategy import suite_strategy

from mcptest.errors import SuiteErrors
from mcptest.suite.load import load_suite
from mcptest.suite.positions import parse_yaml
from mcptest.suite.schema import suite_json_schema

SUITES = st.deferred(lambda: suite_strategy(suite_json_schema()))
"""Built on the first draw (~1.5 s of CPU), not at collection, which every worker does."""
HOSTILE = st.sampled_from([
    float("inf"), float("-inf"), float("nan"), 10**400, -1, 0, 1e308, "", "\x00", "${nope}",
    "$${x}", "(a|aa)+$", "1e999s", "9" * 400, "x" * 5000, [], {}, None, True,
    {"$ref": "http://127.0.0.1:9/x"}, {"regex": "("}, {"exact": [[[[[[]]]]]]},
    {"not": {"not": {"not": {"regex": "a"}}}}, ["a"] * 50,
])
SETTINGS = settings(max_examples=80, deadline=timedelta(seconds=2),
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow, HealthCheck.data_too_large])


def _load_cleanly(path: Path) -> None:
    try:
        load_suite(path, env={"TOK": "t" * 12})
    except SuiteErrors as e:
        assert e.errors
        for error in e.errors:
            assert "\n" not in str(error)
            assert error.pos is not None, str(error)
            assert error.pos.line >= 1 and error.pos.column >= 1


def _replace(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    head, *rest = path
    if isinstance(data, dict):
        return {k: _replace(v, tuple(rest), value) if k == head else v for k, v in data.items()}
    return [_replace(v, tuple(rest), value) if i == head else v for i, v in enumerate(data)]


def _dump(data: Any) -> str:
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


@pytest.mark.slow
@SETTINGS
@given(suite=SUITES)
def test_suites_from_the_schema_load_or_fail_cleanly(tmp_path: Path, suite: Any) -> None:
    path = tmp_path / "s.yml"
    path.write_text(_dump(suite), encoding="utf-8")
    _load_cleanly(path)


@pytest.mark.slow
@SETTINGS
@given(suite=SUITES, data=st.data(), value=HOSTILE)
def test_mutated_suites_load_or_fail_cleanly(
    tmp_path: Path, suite: Any, data: st.DataObject, value: Any
) -> None:
    text = _dump(suite)
    _, positions, _ = parse_yaml(text, "s.yml")
    target = data.draw(st.sampled_from(sorted(positions.values, key=repr)))
    path = tmp_path / "s.yml"
    path.write_text(_dump(_replace(suite, target, value)), encoding="utf-8")
    _load_cleanly(path)
