"""`$ref` inside a suite's `schema` matcher resolves within that schema only (docs/suites.md).

jsonschema fetches any `$ref` it does not know over the network (or from `file://`) by
default, so a suite could make every run send a request of its choosing, and a `$ref` to
nowhere used to crash the run mid-grading. Every validator built from a suite schema gets
`REGISTRY`, which knows the JSON Schema metaschemas and retrieves nothing, and the loader
checks up front that every `$ref` resolves, so one that does not is a positioned load error.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from jsonschema_specifications import REGISTRY as _SPECS  # type: ignore[import-untyped]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

REGISTRY: Registry[Any] = _SPECS
"""The JSON Schema metaschemas, and nothing is ever retrieved (no network, no files)."""
_BASE = "urn:mcptest:suite-schema"
_REF_KEYS = ("$ref", "$dynamicRef")
# Keywords whose values are data, not subschemas: a "$ref" key inside them is just a key.
_DATA_KEYS = frozenset({"const", "enum", "default", "examples"})


def unresolved_refs(schema: Any) -> list[tuple[str, str]]:
    """Every `($ref or $dynamicRef, reference)` of `schema` that does not resolve within it."""
    if not isinstance(schema, dict):
        return []
    resource: Resource[Any] = Resource.from_contents(schema, default_specification=DRAFT202012)
    root = resource.id() or _BASE
    registry = REGISTRY.with_resource(root, resource).crawl()
    bad: list[tuple[str, str]] = []
    _walk(schema, root, registry, bad)
    return bad


def _walk(node: Any, base: str, registry: Registry[Any], bad: list[tuple[str, str]]) -> None:
    if isinstance(node, list):
        for item in node:
            _walk(item, base, registry, bad)
        return
    if not isinstance(node, dict):
        return
    if isinstance(node.get("$id"), str):
        base = urljoin(base, node["$id"])
    for key in _REF_KEYS:
        ref = node.get(key)
        if isinstance(ref, str):
            try:
                registry.resolver(base_uri=base).lookup(ref)
            except Exception:  # Unresolvable, or a pointer into something that is not there
                bad.append((key, ref))
    for key, value in node.items():
        if key not in _DATA_KEYS:
            _walk(value, base, registry, bad)
