"""The models of the deterministic leaf matcher kinds: `exact`, `contains`, `regex`, `schema`
(docs/suites.md, "Matchers"). The judged kinds are `judged_matchers.py`'s; which kinds exist is
the table of `matcher_kinds.py`, and `not`/`all`/`any` are in `composite.py`."""

from __future__ import annotations

from typing import Any

from pydantic import Field, field_validator

from mcptest.suite.models.base import Strict, check_regex


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
        except SchemaError as e:
            raise ValueError(f"invalid JSON Schema: {e.message}") from None
        bad = unresolved_refs(v)
        if bad:
            raise ValueError(
                f"`{bad[0][0]}` {bad[0][1]!r} does not resolve within this schema (schemas are "
                "never fetched from the network or from files; put it under `$defs`)")
        return v
