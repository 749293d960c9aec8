"""The older spellings of two matcher kinds, still loaded: `tools_called` and `eval.rubric`.

Matcher kinds are spelled one way, with hyphens (`llm-judge`, `same-shape`, `tools-called`,
`eval-rubric`; docs/decisions.md, "One spelling per matcher kind"); reports and docs use that
spelling. Suites written before keep loading as they are, and the published schema accepts both.
"""

from __future__ import annotations

from typing import Any

MATCHER_KIND_ALIASES: dict[str, str] = {
    "tools_called": "tools-called", "eval.rubric": "eval-rubric",
}
"""Older spelling → the kind's one spelling."""


def kind_alias_schema(kind: str, alias: str) -> Any:
    """`json_schema_extra` of a one-key matcher model: its key is `kind` or `alias`, not both."""

    def extra(schema: dict[str, Any]) -> None:
        props = schema["properties"]
        props[alias] = {**props[kind], "description": f"Older spelling of `{kind}`."}
        schema.pop("required", None)
        schema["minProperties"] = schema["maxProperties"] = 1

    return extra
