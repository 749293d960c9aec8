"""Deterministic matchers (docs/suites.md, Matchers): pure functions from (matcher, value) to
a verdict.

A failed check is data (`passed=False`) with a message showing expected and actual; nothing here
raises for a value it does not like.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

from mcptest.grade import bounded_regex
from mcptest.grade.verdicts import MAX_SHOWN, Verdict, json_equal, shorten_json
from mcptest.suite.models import (
    AllMatcher,
    AnyMatcher,
    ContainsMatcher,
    ExactMatcher,
    NotMatcher,
    RegexMatcher,
    SchemaMatcher,
    matcher_kind,
)
from mcptest.suite.models.matcher_kinds import KIND_OF_MODEL, load_grader

if TYPE_CHECKING:
    from collections.abc import Callable

    from pydantic import BaseModel

__all__ = ["MAX_SHOWN", "Verdict", "evaluate", "json_equal", "shorten_json"]


def _subset(expected: Any, actual: Any) -> bool:
    """`actual` holds every key/value of `expected`, recursively for objects."""
    if isinstance(expected, dict):
        return isinstance(actual, dict) and all(
            k in actual and _subset(v, actual[k]) for k, v in expected.items()
        )
    return json_equal(expected, actual)


def match_exact(m: ExactMatcher, value: Any) -> Verdict:
    if json_equal(m.exact, value):
        return Verdict(True, expected=m.exact)
    return Verdict(False, f"expected {shorten_json(m.exact)}, got {shorten_json(value)}", m.exact)


def match_contains(m: ContainsMatcher, value: Any) -> Verdict:
    needle = m.contains
    if isinstance(value, str):
        if not isinstance(needle, str):
            return Verdict(False, f"cannot look for {shorten_json(needle)} in a string", needle)
        ok = needle in value
    elif isinstance(value, list):
        ok = any(_subset(needle, item) if isinstance(needle, dict) else json_equal(needle, item)
                 for item in value)
    elif isinstance(value, dict):
        if not isinstance(needle, dict):
            return Verdict(False, f"cannot look for {shorten_json(needle)} in an object; give a "
                                  "mapping of keys and values", needle)
        ok = _subset(needle, value)
    else:
        return Verdict(False, "`contains` needs a string, array or object, got "
                       f"{shorten_json(value)}", needle)
    if ok:
        return Verdict(True, expected=needle)
    return Verdict(False, f"expected to contain {shorten_json(needle)}, "
                          f"got {shorten_json(value)}", needle)


def match_regex(m: RegexMatcher, value: Any) -> Verdict:
    # Numbers and booleans are matched on their JSON text, so `^[0-9]+$` works on a token count.
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    try:
        found = bounded_regex.search(m.regex, text)
    except bounded_regex.RegexTimeout as e:
        return Verdict(False, str(e), m.regex, undecided=True)
    if found:
        return Verdict(True, expected=m.regex)
    return Verdict(False, f"expected a match for /{m.regex}/, got {shorten_json(value)}", m.regex)


def match_schema(m: SchemaMatcher, value: Any) -> Verdict:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import best_match
    from referencing.exceptions import Unresolvable

    from mcptest.suite.schema_refs import REGISTRY

    try:  # the registry never fetches: a $ref resolves within the schema or not at all
        error = best_match(Draft202012Validator(m.schema_, registry=REGISTRY).iter_errors(value))
    except Unresolvable as e:
        return Verdict(False, f"the schema's $ref does not resolve within it: {e}", m.schema_)
    if error is None:
        return Verdict(True, expected=m.schema_)
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    at = f" at `{where.lstrip('.')}`" if where else ""
    return Verdict(False, f"does not match the schema{at}: {error.message}", m.schema_)


def match_not(m: NotMatcher, value: Any) -> Verdict:
    inner = evaluate(m.not_, value)
    if inner.undecided:
        return inner
    if inner.passed:
        negated = m.not_.model_dump(mode="json", by_alias=True, exclude_defaults=True)
        return Verdict(False, f"expected `{matcher_kind(m.not_)}` not to match, but it did "
                              f"(value {shorten_json(value)})", expected={"not": negated})
    return Verdict(True)


def match_all(m: AllMatcher, value: Any) -> Verdict:
    for i, sub in enumerate(m.all):
        v = evaluate(sub, value)
        if not v.passed:
            return Verdict(False, f"all[{i}] ({matcher_kind(sub)}): {v.message}")
    return Verdict(True)


def match_any(m: AnyMatcher, value: Any) -> Verdict:
    reasons = []
    for i, sub in enumerate(m.any):
        v = evaluate(sub, value)
        if v.passed:
            return Verdict(True)
        reasons.append(f"any[{i}] ({matcher_kind(sub)}): {v.message}")
    return Verdict(False, "no alternative matched: " + "; ".join(reasons))


@functools.cache
def _grader(model: type[BaseModel]) -> Callable[[Any, Any], Verdict]:
    kind = KIND_OF_MODEL[model]
    if kind.judged:
        raise TypeError(f"`{kind.name}` is a judged matcher: it is graded by judging/")
    grader: Callable[[Any, Any], Verdict] = load_grader(kind)
    return grader


def evaluate(matcher: BaseModel, value: Any) -> Verdict:
    """Apply a deterministic matcher to a resolved target value (its grader: the table's,
    `suite/models/matcher_kinds.py`)."""
    return _grader(type(matcher))(matcher, value)
