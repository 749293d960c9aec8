"""The models of the deterministic leaf matcher kinds: `exact`, `contains`, `regex`, `schema`
(docs/suites.md, "Matchers"). The judged kinds are `judged_matchers.py`'s; which kinds exist is
the table of `matcher_kinds.py`, and `not`/`all`/`any` are in `composite.py`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from mcptest.suite.models.base import Strict, check_regex

if TYPE_CHECKING:
    from collections.abc import Iterable


class ExactMatcher(Strict):
    exact: Any


class ContainsMatcher(Strict):
    contains: Any


class RegexMatcher(Strict):
    regex: str

    _compiles = field_validator("regex")(check_regex)


class SchemaMatcher(Strict):
    schema_: dict[str, Any] | bool = Field(alias="schema")

    @field_validator("schema_")
    @classmethod
    def _valid_schema(cls, v: dict[str, Any] | bool) -> dict[str, Any] | bool:
        from jsonschema import Draft202012Validator
        from jsonschema.exceptions import SchemaError

        from mcptest.suite.schema_refs import unresolved_refs  # the metaschemas: costly

        try:
            Draft202012Validator.check_schema(v)
        except SchemaError:  # its first error, in an order that varies: say every one
            from jsonschema.validators import validator_for

            meta = validator_for(Draft202012Validator.META_SCHEMA, default=Draft202012Validator)
            raise _schema_problems(meta(Draft202012Validator.META_SCHEMA, format_checker=(
                meta.FORMAT_CHECKER)).iter_errors(v)) from None
        bad = unresolved_refs(v)
        if bad:
            raise ValueError(
                f"`{bad[0][0]}` {bad[0][1]!r} does not resolve within this schema (schemas are "
                "never fetched from the network or from files; put it under `$defs`)")
        return v


def _schema_problem(error: Any) -> dict[str, Any]:
    """One of jsonschema's errors, at the key inside the schema it is about (`at`) and, for a
    value outside an enum (`type: nubmer`), with the values `allowed`.

    An `anyOf` over alternatives (`type` is a type name or a list of them) is taken down to its
    deepest alternative's error, jsonschema's `best_match` among equals: the enum's, not the
    "is not valid under any of the given schemas" above it.
    """
    from jsonschema.exceptions import best_match

    while error.context:
        deepest = max(len(e.relative_path) for e in error.context)
        error = best_match(e for e in error.context if len(e.relative_path) == deepest)
    allowed = error.validator_value if error.validator == "enum" else None
    if not (isinstance(allowed, list) and all(isinstance(x, str) for x in allowed)):
        allowed = None
    return {"problem": error.message, "at": tuple(error.absolute_path), "allowed": allowed,
            "found": error.instance}


def _schema_problems(errors: Iterable[Any]) -> PydanticCustomError:
    """Every error of the schema, by key path (`ctx["problems"]`; the message says the first)."""
    problems = sorted((_schema_problem(e) for e in errors), key=lambda p: [str(x) for x in p["at"]])
    return PydanticCustomError("invalid_json_schema", "invalid JSON Schema: {problem}",
                               {"problem": problems[0]["problem"], "problems": problems})
