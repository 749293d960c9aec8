"""Input schemas a model provider's strict tool mode rejects (docs/lint.md#strict-schema-openai).

An agent test hands the server's schemas to the model's provider; a schema the provider refuses
fails there with a confusing API error. The rules below are the documented limits of OpenAI's
strict function schemas and of Anthropic's tool `input_schema`; they are checked only for the
providers of the models the suite names (or `lint.providers`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Iterator

PROVIDER_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
OPENAI_UNSUPPORTED = (
    "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas",
    "patternProperties", "unevaluatedProperties", "propertyNames", "minProperties",
    "maxProperties", "minLength", "maxLength", "unevaluatedItems", "contains", "minContains",
    "maxContains", "uniqueItems",
)
TOP_LEVEL_COMBINATORS = ("oneOf", "anyOf", "allOf")


def providers_of(models: list[str]) -> set[str]:
    """`openai` / `anthropic` for the model names litellm-style strings point at."""
    found: set[str] = set()
    for model in models:
        low = model.lower()
        if low.startswith(("openai/", "azure/", "gpt-", "o1", "o3", "o4", "chatgpt")):
            found.add("openai")
        if low.startswith("anthropic/") or "claude" in low:
            found.add("anthropic")
    return found


def _subschemas(schema: dict[str, Any], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    yield path, schema
    props = schema.get("properties")
    if isinstance(props, dict):
        for name, sub in props.items():
            if isinstance(sub, dict):
                yield from _subschemas(sub, f"{path}/properties/{name}")
    items = schema.get("items")
    if isinstance(items, dict):
        yield from _subschemas(items, f"{path}/items")
    for key in ("anyOf", "oneOf", "allOf", "prefixItems"):
        seq = schema.get(key)
        for i, sub in enumerate(seq if isinstance(seq, list) else []):
            if isinstance(sub, dict):
                yield from _subschemas(sub, f"{path}/{key}/{i}")
    for key in ("$defs", "definitions"):
        defs = schema.get(key)
        for name, sub in (defs.items() if isinstance(defs, dict) else []):
            if isinstance(sub, dict):
                yield from _subschemas(sub, f"{path}/{key}/{name}")


def _name(name: str) -> list[str]:
    return [] if PROVIDER_NAME.match(name) else [f"name `{name}` is not ^[a-zA-Z0-9_-]{{1,64}}$"]


def _root(schema: Any) -> list[str]:
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return ["the root is not `type: object`"]
    return [f"top-level `{k}`" for k in TOP_LEVEL_COMBINATORS if k in schema]


def openai_problems(name: str, schema: Any) -> list[str]:
    """Why OpenAI's `strict: true` would reject this tool ([] when it would not)."""
    problems = _name(name)
    problems += _root(schema)
    if not isinstance(schema, dict):
        return problems
    for path, sub in _subschemas(schema, "#"):
        is_object = sub.get("type") == "object" or "properties" in sub
        if is_object and sub.get("additionalProperties") is not False:
            problems.append(f"{path}: needs `additionalProperties: false`")
        props = sub.get("properties")
        if is_object and isinstance(props, dict):
            required = set(sub.get("required") or [])
            missing = [p for p in props if p not in required]
            if missing:
                problems.append(f"{path}: every property must be required (not: "
                                f"{', '.join(missing[:5])})")
        bad = [k for k in OPENAI_UNSUPPORTED if k in sub]
        if bad:
            problems.append(f"{path}: unsupported keyword(s) {', '.join(bad)}")
    return problems


def anthropic_problems(name: str, schema: Any) -> list[str]:
    """Why Anthropic's Messages API would reject this tool definition ([] when it would not)."""
    problems = _name(name)
    return problems + _root(schema)
