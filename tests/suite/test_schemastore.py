"""The schema's address resolves to a file we publish; the SchemaStore entry agrees with it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcptest.cli.main import main
from mcptest.suite.schema import REPORT_SCHEMA_ID, SCHEMA_BASE, SUITE_SCHEMA_ID

ROOT = Path(__file__).resolve().parents[2]
RAW = "https://raw.githubusercontent.com/mcptest/action/main/"


def test_schema_ids_are_raw_urls_of_files_in_this_repository() -> None:
    for schema_id in (SUITE_SCHEMA_ID, REPORT_SCHEMA_ID):
        assert schema_id.startswith(RAW)
        served = ROOT / schema_id.removeprefix(RAW)
        assert served.is_file(), f"{schema_id} would serve nothing: no {served}"
        assert json.loads(served.read_text(encoding="utf-8"))["$id"] == schema_id
    assert SCHEMA_BASE == RAW + "schema/"


def test_readme_and_docs_comment_point_at_the_schema_id() -> None:
    comment = f"# yaml-language-server: $schema={SUITE_SCHEMA_ID}"
    for doc in ("README.md", "docs/suites.md", "docs/schemastore.md"):
        assert comment in (ROOT / doc).read_text(encoding="utf-8"), doc


def test_schemastore_catalog_entry() -> None:
    entry = json.loads((ROOT / "docs" / "schemastore-catalog.json").read_text(encoding="utf-8"))
    assert entry["url"] == SUITE_SCHEMA_ID
    assert {"*.mcptest.yml", "mcptest/*.yml"} <= set(entry["fileMatch"])
    assert entry["name"] and entry["description"]
    assert set(entry) == {"name", "description", "fileMatch", "url"}


@pytest.mark.parametrize(("argv", "name"), [(["schema", "--write"], "v1.json"),
                                            (["schema", "--report", "--write"], "report-v1.json")])
def test_schema_write_keeps_the_local_copy(
    argv: list[str], name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 0
    written = tmp_path / "schema" / name
    assert written.read_text(encoding="utf-8") == (ROOT / "schema" / name).read_text(
        encoding="utf-8")


def test_schema_write_to_a_path(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "suite.schema.json"
    assert main(["schema", "--write", str(target)]) == 0
    assert json.loads(target.read_text(encoding="utf-8"))["$id"] == SUITE_SCHEMA_ID
