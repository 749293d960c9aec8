"""Attribute docstrings become the descriptions of the published report schema.

A report model documents a field with the string right under it. Pydantic's own
`use_attribute_docstrings` would read them too, but it parses every model's source when the
class is created, on every start of mcptest (docs/architecture.md, "Costs"). Here they are read
only when a schema is generated (`model_json_schema`, via `json_schema_extra`), never on a run.
"""

from __future__ import annotations

import ast
import inspect
import itertools
import textwrap
from typing import Any


def attribute_docs(cls: type[Any]) -> dict[str, str]:
    """`name: type` followed by a string literal in the class body: that string, cleaned."""
    try:
        source = inspect.getsource(cls)
    except (OSError, TypeError):  # no source (a frozen build): the schema goes without them
        return {}
    tree = ast.parse(textwrap.dedent(source))
    body = tree.body[0].body if isinstance(tree.body[0], ast.ClassDef) else []
    return {
        stmt.target.id: " ".join(inspect.cleandoc(after.value.value).split())
        for stmt, after in itertools.pairwise(body)
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name)
        and isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant)
        and isinstance(after.value.value, str)
    }


def describe_properties(schema: dict[str, Any], cls: type[Any]) -> None:
    """Give each property of a model's schema its field's docstring (an explicit
    `Field(description=…)` wins); properties are named by alias, as the report writes them."""
    docs = attribute_docs(cls)
    properties = schema.get("properties", {})
    for name, field in cls.model_fields.items():
        key = field.serialization_alias or field.alias or name
        if key in properties and name in docs and not properties[key].get("description"):
            properties[key]["description"] = docs[name]
