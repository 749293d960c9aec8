"""Deterministic matchers: semantics of docs/suites.md and readable failure messages."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter

from mcptest.grade.deterministic import evaluate, json_equal, shorten_json
from mcptest.suite.models import Matcher

MATCHER = TypeAdapter(Matcher)


def check(spec: dict[str, Any], value: Any) -> tuple[bool, str | None]:
    v = evaluate(MATCHER.validate_python(spec), value)
    return v.passed, v.message


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1.0, True), (1, "1", False), (True, 1, False), (False, 0, False), (None, None, True),
        ({"a": [1, {"b": True}]}, {"a": [1, {"b": True}]}, True),
        ({"a": 1}, {"a": 1, "b": 2}, False), ([1, 2], [2, 1], False), ("x", "x", True),
    ],
)
def test_json_equal_has_no_coercion(a: Any, b: Any, equal: bool) -> None:
    assert json_equal(a, b) is equal


def test_exact() -> None:
    assert check({"exact": "Hello, Ada!"}, "Hello, Ada!") == (True, None)
    ok, msg = check({"exact": True}, 1)
    assert not ok and msg == "expected true, got 1"
    assert check({"exact": {"t": 21.5}}, {"t": 21.5})[0]


def test_contains_string_array_object() -> None:
    assert check({"contains": "ell"}, "Hello")[0]
    assert not check({"contains": "xyz"}, "Hello")[0]
    assert check({"contains": 2}, [1, 2, 3])[0]
    assert not check({"contains": "2"}, [1, 2, 3])[0]
    assert check({"contains": {"a": {"b": 1}}}, {"a": {"b": 1, "c": 2}, "d": 3})[0]
    assert not check({"contains": {"a": {"b": 2}}}, {"a": {"b": 1}})[0]
    # an object needle in an array matches an element that contains it
    assert check({"contains": {"name": "x"}}, [{"name": "y"}, {"name": "x", "id": 1}])[0]
    ok, msg = check({"contains": 3}, "abc")
    assert not ok and "cannot look for 3 in a string" in msg


def test_regex_search_flags_and_numbers() -> None:
    assert check({"regex": "(?i)sacramento"}, "Weather in SACRAMENTO")[0]
    assert check({"regex": "^[0-9]+$"}, 1234)[0]
    ok, msg = check({"regex": "^z"}, "abc")
    assert not ok and msg == 'expected a match for /^z/, got "abc"'


def test_schema() -> None:
    assert check({"schema": {"minimum": 0.7}}, 0.9)[0]
    assert check({"schema": {"type": "array", "minItems": 1}}, [1])[0]
    ok, msg = check({"schema": {"type": "object", "properties": {"t": {"type": "number"}}}},
                    {"t": "warm"})
    assert not ok and msg.startswith("does not match the schema at `t`:")


def test_not_all_any() -> None:
    assert check({"not": {"contains": "error"}}, "fine")[0]
    ok, msg = check({"not": {"contains": "err"}}, "an error")
    assert not ok and "expected `contains` not to match" in msg
    assert check({"all": [{"contains": "a"}, {"regex": "c$"}]}, "abc")[0]
    ok, msg = check({"all": [{"contains": "a"}, {"regex": "z$"}]}, "abc")
    assert not ok and msg.startswith("all[1] (regex):")
    assert check({"any": [{"exact": 1}, {"exact": 2}]}, 2)[0]
    ok, msg = check({"any": [{"exact": 1}, {"exact": 2}]}, 3)
    assert not ok and "any[0] (exact): expected 1, got 3" in msg


def test_long_values_are_shortened_with_length() -> None:
    text = shorten_json("x" * 5000)
    assert text.endswith("… (5,000 chars)") and len(text) < 260
    ok, msg = check({"exact": "short"}, "y" * 10_000)
    assert not ok and "(10,000 chars)" in msg
