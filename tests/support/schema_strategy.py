"""Hypothesis strategies for instances of our suite JSON Schema (tests/suite/test_suite_fuzz.py).

hypothesis-jsonschema would be the library for this, but its last release (0.23.1) fails against
the hypothesis we use (`many.more` is gone), so this covers the keywords `schema/v1.json` uses:
`$ref` into `$defs`, `type`, `properties`/`required`/`additionalProperties`, `anyOf`/`oneOf`,
`enum`/`const`, `items`/`minItems`, numeric bounds and duration `pattern`s. A `$defs` entry
already being drawn further up is not entered again, so recursion (matchers in matchers, tree
nodes) stays bounded; mutations in the test add the rest.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

SCALARS = st.sampled_from(["x", "tool", "${x}", "a b", "30s", "", "Oslo"])
DURATIONS = st.sampled_from(["500ms", "30s", "2m", "1h", "0.5"])


def suite_strategy(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    return _strategy(schema, schema.get("$defs", {}), ())


def _strategy(node: Any, defs: dict[str, Any], seen: tuple[str, ...]) -> st.SearchStrategy[Any]:
    if node is True or node == {}:
        return st.none() | st.booleans() | st.integers(-5, 5) | SCALARS
    if node is False:
        return st.nothing()
    ref = node.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if name in seen:
            return st.nothing()
        return _strategy(defs[name], defs, (*seen, name))
    for key in ("anyOf", "oneOf"):
        if key in node:
            return st.one_of([_strategy(option, defs, seen) for option in node[key]])
    if "const" in node:
        return st.just(node["const"])
    if "enum" in node:
        return st.sampled_from(node["enum"])
    kind = node.get("type")
    if kind == "object" or "properties" in node:
        return _object(node, defs, seen)
    if kind == "array":
        items = _strategy(node.get("items", True), defs, seen)
        low = node.get("minItems", 0)
        return st.lists(items, min_size=low, max_size=max(low, 2))
    if kind == "string":
        if "pattern" in node:
            return DURATIONS if "ms|s|m|h" in node["pattern"] else st.just("https://x.example/mcp")
        return SCALARS.filter(lambda s: len(s) >= node.get("minLength", 0))
    if kind == "integer":
        return st.integers(node.get("minimum", -3), node.get("maximum", 30))
    if kind == "number":
        low = node.get("minimum", node.get("exclusiveMinimum", -3))
        high = node.get("maximum", 30)
        return st.floats(low, high, exclude_min="exclusiveMinimum" in node, allow_nan=False)
    if kind == "boolean":
        return st.booleans()
    if kind == "null":
        return st.none()
    return st.none()


def _object(node: dict[str, Any], defs: dict[str, Any], seen: tuple[str, ...]) -> Any:
    properties: dict[str, Any] = node.get("properties", {})
    required = set(node.get("required", ()))
    extra = node.get("additionalProperties")
    fixed = {k: _strategy(v, defs, seen) for k, v in properties.items() if k in required}
    optional = {k: _strategy(v, defs, seen) for k, v in properties.items() if k not in required}
    base = st.fixed_dictionaries(fixed, optional=optional)
    if isinstance(extra, dict) and extra and not properties:
        return st.dictionaries(st.sampled_from(["s", "t", "u"]), _strategy(extra, defs, seen),
                               max_size=2)
    return base
