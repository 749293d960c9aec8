"""Every field of the canonical report is documented in the published schema: the report is the
API of every consumer, and `schema/report-v1.json` is its field reference (docs/reports.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from mcptest.report.base import Model
from mcptest.suite.schema import report_json_schema

ROOT = Path(__file__).resolve().parents[2]


def _described(schema: Any) -> bool:
    return isinstance(schema, dict) and bool(str(schema.get("description", "")).strip())


def undocumented(schema: Any, path: str = "#") -> Iterator[str]:
    """JSON pointers of every definition and every property, at any depth (`$defs`, nested
    `$defs`, inline objects, `items`, `anyOf` branches), that has no description."""
    if isinstance(schema, list):
        for i, item in enumerate(schema):
            yield from undocumented(item, f"{path}/{i}")
        return
    if not isinstance(schema, dict):
        return
    for key, value in schema.items():
        if key in ("$defs", "properties") and isinstance(value, dict):
            for name, sub in value.items():
                if not _described(sub):
                    yield f"{path}/{key}/{name}"
                yield from undocumented(sub, f"{path}/{key}/{name}")
        elif key not in ("default", "examples", "const", "enum"):
            yield from undocumented(value, f"{path}/{key}")


def test_every_report_field_has_a_description() -> None:
    missing = list(undocumented(report_json_schema()))
    assert missing == [], (
        "report fields without a description (write a docstring under the field in "
        f"src/mcptest/report/, then regenerate the schema): {missing}")


def test_the_published_report_schema_is_documented_throughout() -> None:
    published = json.loads((ROOT / "schema" / "report-v1.json").read_text(encoding="utf-8"))
    assert list(undocumented(published)) == []
    assert len(published["$defs"]) >= 20  # the walk reached the definitions
    described = [p for d in published["$defs"].values() for p in d.get("properties", {}).values()]
    assert len(described) >= 250 and all(p["description"].strip() for p in described)


class _Probe(Model):
    """A model as a consumer would see it."""

    documented: int
    """What it counts, in
    two lines."""
    bare: str


def test_an_undocumented_field_is_caught_and_a_docstring_lands_in_the_schema() -> None:
    schema = _Probe.model_json_schema()
    assert schema["properties"]["documented"]["description"] == "What it counts, in two lines."
    assert list(undocumented({"$defs": {"_Probe": schema}})) == ["#/$defs/_Probe/properties/bare"]
    nested = {"$defs": {"A": {"description": "a", "$defs": {"B": {"properties": {"x": {}}}}}}}
    assert list(undocumented(nested)) == ["#/$defs/A/$defs/B", "#/$defs/A/$defs/B/properties/x"]
    assert list(undocumented({"$defs": {"C": {"properties": {}}}})) == ["#/$defs/C"]
