"""Validate a suite file section by section: only the models of the sections it has are built.

`Suite.model_validate` would build every section's models (servers, tests, matchers, …) before
checking a file of three evals. Here each top-level key the file has is validated with its own
type (`Suite.section_type`), and the errors are pydantic's own, each `loc` starting at its key,
as validating the whole `Suite` gives them; an unknown top-level key is the same
`extra_forbidden` error. A file that is not a mapping of names goes through the whole model.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from mcptest.suite.models.suite import Suite

if TYPE_CHECKING:
    from pydantic_core import ErrorDetails


@functools.cache
def _adapter(key: str) -> TypeAdapter[Any]:
    return TypeAdapter(Suite.section_type(key), config=ConfigDict(allow_inf_nan=False))


def validate_sections(data: Any) -> tuple[Suite | None, list[ErrorDetails]]:
    """The suite, or None and every validation error (pydantic's, as the whole model's)."""
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        try:
            return Suite.model_validate(data), []
        except ValidationError as e:
            return None, e.errors(include_url=False)
    values: dict[str, Any] = {}
    errors: list[ErrorDetails] = []
    for key in Suite.model_fields:  # in the model's order, as pydantic reports them
        if key not in data:
            continue
        try:
            values[key] = _adapter(key).validate_python(data[key])
        except ValidationError as e:
            errors.extend({**err, "loc": (key, *err["loc"])}
                          for err in e.errors(include_url=False))
    errors.extend({"type": "extra_forbidden", "loc": (key,), "input": value,
                   "msg": "Extra inputs are not permitted"}
                  for key, value in data.items() if key not in Suite.model_fields)
    return (None, errors) if errors else (Suite.from_sections(values), [])
