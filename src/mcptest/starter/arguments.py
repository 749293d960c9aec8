"""Tool arguments from a tool's input schema: the schema's own examples, defaults, consts and
enums where it has them, typed placeholders (collected as TODOs) where it does not."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

PLACEHOLDER = "TODO"
_NOTHING = object()
_ASKS_FOR_FAILURE = re.compile(
    r"(?i)^(?:error|errors|fail|failed|failure|fails|invalid|exception|throw|raise|crash|"
    r"timeout|reject|rejected|denied|deny|bad|broken|panic|abort)(?:[-_ ]\w+)?$")
"""An enum value that asks the tool for its failure (server-everything's `messageType: error`):
never the starter's pick, since the starter test expects a success."""


@dataclass
class Arguments:
    values: dict[str, Any]
    todo: list[str] = field(default_factory=list)  # paths whose value is a placeholder


def arguments_for(schema: Any) -> Arguments:
    """Every required property of an object schema, with a value that fits its type."""
    todo: list[str] = []
    values = _object(schema if isinstance(schema, dict) else {}, "", todo, depth=0)
    return Arguments(values=values, todo=todo)


def _object(schema: dict[str, Any], path: str, todo: list[str], depth: int) -> dict[str, Any]:
    props = schema.get("properties")
    required = schema.get("required")
    if not isinstance(props, dict) or not isinstance(required, list):
        return {}
    return {
        str(key): _value(props.get(key), f"{path}.{key}" if path else str(key), todo, depth + 1)
        for key in required if isinstance(key, str)
    }


def _given(schema: dict[str, Any]) -> Any:
    """A value the schema itself offers, or _NOTHING."""
    examples = schema.get("examples")
    if isinstance(examples, list) and examples:
        return examples[0]
    for key in ("example", "default", "const"):
        if key in schema:
            return schema[key]
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return next((v for v in enum if not asks_for_failure(v)), enum[0])
    return _NOTHING


def asks_for_failure(value: Any) -> bool:
    """True for an enum value such as `error`, `fail` or `invalid-input`."""
    return isinstance(value, str) and _ASKS_FOR_FAILURE.match(value.strip()) is not None


def _value(schema: Any, path: str, todo: list[str], depth: int) -> Any:
    if not isinstance(schema, dict) or depth > 8:
        todo.append(path)
        return PLACEHOLDER
    given = _given(schema)
    if given is not _NOTHING:
        if asks_for_failure(given):  # every enum value does: a person must choose
            todo.append(path)
        return given
    for combinator in ("anyOf", "oneOf", "allOf"):
        options = schema.get(combinator)
        if isinstance(options, list):
            usable = [o for o in options if isinstance(o, dict) and o.get("type") != "null"]
            if usable:
                return _value(usable[0], path, todo, depth + 1)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object" or "properties" in schema:
        return _object(schema, path, todo, depth)
    if kind == "null":
        return None
    todo.append(path)
    if kind in ("integer", "number"):
        low = schema.get("minimum", schema.get("exclusiveMinimum", 1))  # 1: no divide by zero
        low = low if isinstance(low, int | float) and not isinstance(low, bool) else 1
        if "exclusiveMinimum" in schema and "minimum" not in schema:
            low += 1
        return int(low) if kind == "integer" else low
    if kind == "boolean":
        return False
    if kind == "array":
        items = schema.get("items")
        count = schema.get("minItems", 0)
        if isinstance(count, int) and count > 0:
            return [_value(items, f"{path}[{i}]", [], depth + 1) for i in range(min(count, 3))]
        return []
    return f"{PLACEHOLDER}: {path}"
