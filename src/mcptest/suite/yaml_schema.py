"""How a suite file's plain scalars get their types: YAML 1.2's core schema on PyYAML's loader.

Only `true`/`false` are booleans (`yes`, `no`, `on`, `off` stay strings, so a decision tree's
`yes:`/`no:` keys and an `exact: no` mean what they look like), `012` is twelve and `12:30` is
text (no octal or base-60 surprises), `1e3` is a number, and dates stay strings (JSON has no
date type). The composer (`SuiteLoader`) and the one-pass builder (`suite/yaml_events.py`) read
the same table and the same conversions (`SCALARS`), so both give a scalar the same value.
An explicit tag is one of JSON's kinds or an error (`tag_problem`): `!!timestamp`, `!!binary`,
`!!set`, `!!python/…` would make values a suite cannot hold (docs/decisions.md, "Explicit YAML
tags").
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import yaml

if TYPE_CHECKING:  # the stubs type the C loader apart; both share SafeLoader's interface
    from collections.abc import Callable
    _BaseLoader = yaml.SafeLoader
else:
    _BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
TAG = "tag:yaml.org,2002:"
STR = TAG + "str"
MAP = TAG + "map"
SEQ = TAG + "seq"
_INT = re.compile(r"^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$")
_FLOAT = re.compile(
    r"^(?:[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$"
)


class SuiteLoader(_BaseLoader):
    """The fastest safe loader available, resolving plain scalars by YAML 1.2's core schema."""


def _int(text: str) -> int:
    if text.startswith("0o"):
        return int(text[2:], 8)
    if text.startswith("0x"):
        return int(text[2:], 16)
    return int(text, 10)  # `012` is twelve, not YAML 1.1's octal ten


def _float(text: str) -> float:
    text = text.lower()
    return float(text.replace(".inf", "inf").replace(".nan", "nan"))


def _construct_int(loader: Any, node: yaml.ScalarNode) -> int:
    return _int(loader.construct_scalar(node))


def _construct_float(loader: Any, node: yaml.ScalarNode) -> float:
    return _float(loader.construct_scalar(node))


SuiteLoader.yaml_implicit_resolvers = {  # PyYAML's class-level resolver table
    first: [(tag, rx) for tag, rx in resolvers
            if tag not in {TAG + t for t in ("bool", "int", "float", "timestamp")}]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
SuiteLoader.add_implicit_resolver(
    TAG + "bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
SuiteLoader.add_implicit_resolver(TAG + "int", _INT, list("-+0123456789"))
SuiteLoader.add_implicit_resolver(TAG + "float", _FLOAT, list("-+.0123456789"))
SuiteLoader.add_constructor(TAG + "int", _construct_int)
SuiteLoader.add_constructor(TAG + "float", _construct_float)
IMPLICIT_RESOLVERS: dict[Any, list[tuple[str, re.Pattern[str]]]] = (
    SuiteLoader.yaml_implicit_resolvers)
"""How a plain scalar of a suite file gets its type, for writers of suites (`mcptest init`
quotes every string one of these would re-type)."""

_WILDCARD = IMPLICIT_RESOLVERS.get(None, [])
RESOLVERS_BY_FIRST: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    first: resolvers + _WILDCARD for first, resolvers in IMPLICIT_RESOLVERS.items()
    if first is not None and resolvers + _WILDCARD}
"""`IMPLICIT_RESOLVERS` as `BaseResolver.resolve` reads it, by a plain scalar's first
character (`""` for the empty scalar): a character missing here has no resolver but
`WILDCARD_RESOLVERS`."""
WILDCARD_RESOLVERS = _WILDCARD
_BOOL: dict[str, bool] = yaml.constructor.SafeConstructor.bool_values
SCALARS: dict[str, Callable[[str], Any]] = {
    TAG + "null": lambda _text: None,
    TAG + "bool": lambda text: _BOOL[text.lower()],
    TAG + "int": _int,
    TAG + "float": _float,
    TAG + "merge": str,  # a plain `<<` or `=` value: YAML 1.1's merge and value keys are
    TAG + "value": str,  # keys only; as a value each is its text, as in YAML 1.2
}
"""A scalar's text to its value, for every tag a suite's scalar may have but str (its text).
Both readers convert with this table alone; a tag it lacks is `tag_problem`'s."""
_HOLDS = {STR: "a string", TAG + "null": "null", TAG + "bool": "true or false",
          TAG + "int": "an integer", TAG + "float": "a number",
          MAP: "a mapping", SEQ: "a list"}
_INSTEAD = {TAG + "timestamp": "a date stays a string: drop the tag",
            TAG + "binary": "a suite holds text, not bytes", TAG + "set": "write a list",
            TAG + "omap": "write a mapping", TAG + "pairs": "write a mapping"}
_SHOWN_MAX = 40


def tag_problem(tag: str, found: str) -> str:
    """Why a node tagged `tag` that holds `found` ("a list", "a mapping", or `scalar_found`) is
    refused: a JSON kind's tag on the wrong kind or text, or any other tag at all."""
    shown = "!!" + tag.removeprefix(TAG) if tag.startswith(TAG) else tag
    if tag in _HOLDS:
        return f"`{shown}` cannot hold {found} (expected {_HOLDS[tag]})"
    instead = _INSTEAD.get(tag, "a suite reads only !!str, !!int, !!float, !!bool, !!null, "
                                "!!seq and !!map")
    return f"tag `{shown}` is not supported ({instead})"


def scalar_found(text: str) -> str:
    """A scalar's text for a message: quoted, escaped, and cut to `_SHOWN_MAX` characters."""
    return repr(text if len(text) <= _SHOWN_MAX else text[:_SHOWN_MAX - 1] + "…")
