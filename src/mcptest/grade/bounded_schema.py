"""Validating against a JSON Schema someone else wrote: a server's elicitation form
(docs/suites.md#the-client-side).

jsonschema's defaults trust the schema: an unknown `$ref` is fetched from any URL (no timeout)
or read from `file://`, a `pattern` runs on Python's `re` (which holds the GIL through
catastrophic backtracking), and the work grows with the schema. Here the registry retrieves
nothing (`suite.schema_refs.REGISTRY`, the suite's rule), every `pattern` is matched by
`bounded_regex` under one deadline for the whole validation, and a schema larger than the
bounds below is refused before a validator is built. Callers run `problem()` off the event loop.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from mcptest.grade import bounded_regex

if TYPE_CHECKING:
    from collections.abc import Iterator

MAX_NODES = 5_000
"""Objects, arrays and values one schema may hold (an MCP form is a flat list of fields)."""
MAX_DEPTH = 32
"""Nesting one schema may have."""
DEADLINE_S = 2.0
"""Longest one validation may take, every `pattern` match included."""
_NOT_APPLIED = ("patternProperties", "$dynamicRef")
"""Keywords whose work jsonschema does with unbounded `re` or retrieval: refused, not applied."""


def _shape_problem(schema: Any) -> str | None:
    """Why the schema is too large or uses a keyword we do not apply (None: neither)."""
    stack: list[tuple[Any, int]] = [(schema, 1)]
    nodes = 0
    while stack:
        node, depth = stack.pop()
        nodes += 1
        if nodes > MAX_NODES:
            return f"the schema holds more than {MAX_NODES:,} values"
        if depth > MAX_DEPTH:
            return f"the schema nests more than {MAX_DEPTH} levels"
        if isinstance(node, dict):
            for key in _NOT_APPLIED:
                if key in node:
                    return (f"the schema uses `{key}`, which mcptest does not apply to a "
                            "server's schema")
            stack.extend((v, depth + 1) for v in node.values())
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in node)
    return None


def problem(instance: Any, schema: Any, *, deadline_s: float = DEADLINE_S) -> str | None:
    """Why `instance` does not fit `schema`, or why the schema was not applied (None: it fits).

    A schema that is not one (bad keywords) is not ours to judge: None."""
    from jsonschema import FormatChecker, ValidationError, validators
    from jsonschema.exceptions import SchemaError, best_match
    from referencing.exceptions import Unresolvable

    from mcptest.suite.schema_refs import REGISTRY

    if not isinstance(schema, dict):
        return None
    shape = _shape_problem(schema)
    if shape is not None:
        return shape
    ends = time.monotonic() + deadline_s

    def pattern(validator: Any, patrn: Any, value: Any, _schema: Any) -> Iterator[Any]:
        if not (validator.is_type(value, "string") and isinstance(patrn, str)):
            return
        left = ends - time.monotonic()
        try:
            if left <= 0:
                raise bounded_regex.RegexTimeout(patrn[:80])
            limit = min(left, bounded_regex.MATCH_TIMEOUT_S)
            if not bounded_regex.search(patrn, value, timeout=limit):
                yield ValidationError(f"{value[:80]!r} does not match {patrn[:80]!r}")
        except bounded_regex.RegexTimeout as e:
            yield ValidationError(str(e))
        except Exception:  # the `regex` package refuses the pattern
            yield ValidationError(f"the pattern {patrn[:80]!r} is not a regular expression")

    try:
        base = validators.validator_for(schema)
        base.check_schema(schema)
    except (SchemaError, RecursionError):
        return None
    cls = validators.extend(base, {"pattern": pattern})  # type: ignore[no-untyped-call]
    try:
        error = best_match(cls(schema, registry=REGISTRY,
                               format_checker=FormatChecker()).iter_errors(instance))
    except Unresolvable as e:
        return f"a `$ref` does not resolve within the schema (nothing is retrieved): {str(e)[:120]}"
    except RecursionError:
        return "the schema refers to itself without end"
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path)
    return f"{where + ': ' if where else ''}{error.message[:200]}"
