"""`mcptest schema [--report]`: print the suite (or report) JSON Schema shipped in the package."""

from __future__ import annotations

import argparse
import sys
from importlib import resources

from mcptest.exit_codes import ExitCode


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "schema", help="print the JSON Schema of suite files",
        description="Print the JSON Schema (draft 2020-12) of suite files, or of the JSON report.",
    )
    p.add_argument("--report", action="store_true",
                   help="print the schema of the JSON report instead")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    name = "report-v1.json" if args.report else "v1.json"
    shipped = resources.files("mcptest") / "schemas" / name
    if shipped.is_file():
        text = shipped.read_text(encoding="utf-8")
    else:  # a source tree where the files were never generated
        from mcptest.suite.schema import render, report_json_schema, suite_json_schema

        text = render(report_json_schema() if args.report else suite_json_schema())
    sys.stdout.write(text)
    return ExitCode.OK
