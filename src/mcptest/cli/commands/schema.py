"""`mcptest schema [--report] [--output PATH | --write]`: the suite (or report) JSON Schema.

Printed by default; `--output PATH` keeps a local copy (docs/schemastore.md), in a user's project
an offline target for the `$schema` comment; `--write` alone rewrites this repository's served
`schema/v1.json` (`--write PATH` is the old spelling of `--output PATH`).
"""

from __future__ import annotations

import sys
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.cli.output_flags import AliasedStore
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = "Print the JSON Schema (draft 2020-12) of suite files, or of the JSON report."
    p.add_argument("--report", action="store_true",
                   help="print the schema of the JSON report instead")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--output", dest="write", metavar="PATH",
                       help="write the schema to PATH instead of printing it")
    where.add_argument("--write", nargs="?", const="", default=None, metavar="PATH",
                       action=AliasedStore,
                       help="write schema/v1.json (schema/report-v1.json with --report) instead "
                            "of printing it; --write PATH: deprecated alias of --output PATH")
    p.set_defaults(handler=run)


def _text(report: bool) -> str:
    """Generated from the installed models, so a written copy is never older than the code."""
    from mcptest.suite.schema import report_json_schema, schema_text, suite_json_schema

    return schema_text(report_json_schema() if report else suite_json_schema())


def run(args: argparse.Namespace) -> int:
    name = "report-v1.json" if args.report else "v1.json"
    if args.write is not None:
        path = Path(args.write or Path("schema") / name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(_text(args.report), encoding="utf-8")
        print(f"wrote {path}", file=sys.stderr)
        return ExitCode.OK
    shipped = resources.files("mcptest") / "schemas" / name
    text = shipped.read_text(encoding="utf-8") if shipped.is_file() else _text(args.report)
    sys.stdout.write(text)
    return ExitCode.OK
