"""The published JSON Schemas (draft 2020-12), generated from our own models.

`schema/v1.json` describes suite files (editors use it through the `yaml-language-server`
comment); `schema/report-v1.json` describes the canonical JSON report. Copies ship inside the
package (`mcptest/schemas/`) so `mcptest schema` works from a wheel without building models.

Regenerate after changing a model, from the repository's root:
`.venv/bin/python -m mcptest.suite.schema --write` (`--check` exits 1 when a file is stale). The
repository is the directory it runs in (or `--root DIR`), never found from this file's path: an
installed package has no repository around it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

DRAFT = "https://json-schema.org/draft/2020-12/schema"
# The files as served from this repository's default branch (docs/schemastore.md): an address
# that resolves, so editors following the `$schema` comment get completion.
SCHEMA_BASE = "https://raw.githubusercontent.com/mcptest/action/main/schema/"
SUITE_SCHEMA_ID = SCHEMA_BASE + "v1.json"
REPORT_SCHEMA_ID = SCHEMA_BASE + "report-v1.json"
REGENERATE = ".venv/bin/python -m mcptest.suite.schema --write"

_PACKAGE = Path(__file__).resolve().parents[1] / "schemas"


def _header(schema_id: str, title: str, description: str, body: dict[str, Any]) -> dict[str, Any]:
    body.pop("title", None)
    body.pop("description", None)
    return {"$schema": DRAFT, "$id": schema_id, "title": title, "description": description,
            **body}


def _string_commands(properties: dict[str, Any]) -> None:
    """A `command` may also be one string, split like a shell would (a before-validator)."""
    command = properties.get("command")
    if not command:
        return
    text = {"type": "string", "minLength": 1}
    if command.get("type") == "array":
        kept = {k: command[k] for k in ("description", "default") if k in command}
        array = {k: v for k, v in command.items() if k not in ("description", "title", "default")}
        properties["command"] = {**kept, "anyOf": [text, array]}
    elif any(option.get("type") == "array" for option in command.get("anyOf", [])):
        command["anyOf"] = [text, *command["anyOf"]]


def suite_json_schema() -> dict[str, Any]:
    """JSON Schema of a suite file, with YAML keys (aliases) as property names."""
    from mcptest.suite.models import Suite

    body = Suite.model_json_schema(by_alias=True, mode="validation")
    for definition in body["$defs"].values():
        _string_commands(definition.get("properties", {}))
    return _header(
        SUITE_SCHEMA_ID, "mcptest suite",
        "A suite file for mcptest: MCP servers, tool-call tests with deterministic and LLM "
        "matchers, rubric evals and agent tests. Unknown keys are errors everywhere.",
        body,
    )


def report_json_schema() -> dict[str, Any]:
    """JSON Schema of the canonical report as written by `--reporter json`."""
    from mcptest.report.models import Report

    body = Report.model_json_schema(by_alias=True, mode="serialization")
    return _header(
        REPORT_SCHEMA_ID, "mcptest report",
        "The canonical result of one mcptest run (versioned); every reporter renders it.",
        body,
    )


def schema_text(schema: dict[str, Any]) -> str:
    """The exact text we publish: 2-space indent, UTF-8, newline at the end."""
    return json.dumps(schema, indent=2, ensure_ascii=False) + "\n"


def published_files(root: Path | None) -> dict[Path, str]:
    """Every schema file we ship, with the text it must have: the copies in this package and,
    given a source checkout's `root`, the two in its `schema/`."""
    suite, report = schema_text(suite_json_schema()), schema_text(report_json_schema())
    files = {_PACKAGE / "v1.json": suite, _PACKAGE / "report-v1.json": report}
    if root is not None:
        files |= {root / "schema" / "v1.json": suite, root / "schema" / "report-v1.json": report}
    return files


def stale_files(root: Path | None) -> list[Path]:
    """Published files whose text differs from what the models generate now."""
    return [
        path for path, text in published_files(root).items()
        if not path.is_file() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcptest.suite.schema",
                                     description="Generate or check the published JSON Schemas.")
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", action="store_true", help="write every schema file")
    mode.add_argument("--check", action="store_true", help="exit 1 when a file is stale")
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the source checkout whose schema/ to write or check (default: here)")
    args = parser.parse_args(argv)
    if not (args.root / "pyproject.toml").is_file():
        parser.error(f"{args.root.resolve()} is not a source checkout (no pyproject.toml): run "
                     "from the repository's root or pass --root")
    if args.write:
        for path, text in published_files(args.root).items():
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    stale = stale_files(args.root)
    for path in stale:
        print(f"stale: {path} (run `{REGENERATE}`)", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
