"""`same-shape` (tier 2 of docs/cascade.md): does the target have the JSON structure of the
reference? Same keys (recursively), same JSON types, arrays by element structure; values are
never compared. A string target that holds JSON is compared as the JSON it holds when the
reference is not itself a string (a tool's text content often is a JSON document).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from mcptest.grade.verdicts import Verdict

if TYPE_CHECKING:
    from collections.abc import Iterator

    from mcptest.suite.models.scoring import SameShapeMatcher

MAX_LISTED = 8
"""Differing paths named in one failure message; the rest are counted."""


_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
    (dict, "object"))


def json_type(value: Any) -> str:
    """The JSON type name of a parsed value (`integer` and `number` told apart)."""
    if value is None:
        return "null"
    for kind, name in _JSON_TYPES:  # bool before int: a bool is an int to Python
        if isinstance(value, kind):
            return name
    return type(value).__name__


def _same_type(expected: Any, actual: Any) -> bool:
    want, got = json_type(expected), json_type(actual)
    return want == got or (want == "number" and got == "integer")  # 2 is a number too


def differences(expected: Any, actual: Any, path: str = "$", *, extra_keys: bool = False
                ) -> Iterator[str]:
    """Every place where `actual`'s structure departs from `expected`'s, as `path: why`.

    Objects: every key of the reference must be there, and (unless `extra_keys`) no other.
    Arrays: each element of the target is compared with the reference's first element (its
    element template); an empty reference array accepts any elements.
    """
    if not _same_type(expected, actual):
        yield f"{path}: expected {json_type(expected)}, got {json_type(actual)}"
        return
    if isinstance(expected, dict):
        for key, sub in expected.items():
            where = f"{path}.{key}"
            if key not in actual:
                yield f"{where}: missing (expected {json_type(sub)})"
            else:
                yield from differences(sub, actual[key], where, extra_keys=extra_keys)
        if not extra_keys:
            for key in actual:
                if key not in expected:
                    yield f"{path}.{key}: unexpected key ({json_type(actual[key])})"
    elif isinstance(expected, list) and expected:
        for i, item in enumerate(actual):
            yield from differences(expected[0], item, f"{path}[{i}]", extra_keys=extra_keys)


def grade_same_shape(m: SameShapeMatcher, value: Any) -> Verdict:
    spec = m.same_shape
    expected = spec.expected
    if isinstance(value, str) and not isinstance(expected, str):
        try:
            value = json.loads(value)
        except ValueError:
            return Verdict(False, f"$: expected {json_type(expected)}, got a string that is not "
                                  "JSON", _template(expected))
    found = list(differences(expected, value, extra_keys=spec.extra_keys == "allow"))
    if not found:
        return Verdict(True, expected=_template(expected))
    listed = "; ".join(found[:MAX_LISTED])
    more = f"; and {len(found) - MAX_LISTED} more" if len(found) > MAX_LISTED else ""
    return Verdict(False, f"shape differs from the reference at {len(found)} path(s): "
                          f"{listed}{more}", _template(expected))


def _template(value: Any) -> Any:
    """The reference's shape as shown in a report: types in place of values."""
    if isinstance(value, dict):
        return {k: _template(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_template(value[0])] if value else []
    return json_type(value)
