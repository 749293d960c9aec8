"""`mcptest report run.json --reporter NAME`: re-render a saved run in any format."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.cli.output import write_reports
from mcptest.cli.output_flags import add_single_output
from mcptest.cli.output_paths import check_outputs

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", type=Path, help="a report written by --reporter json")
    add_single_output(p, default="pretty")
    p.add_argument("--exit-code", action="store_true",
                   help="exit with the saved run's exit code instead of 0")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcptest.report.io import read_report

    check_outputs([(args.reporter, args.output)], [Path(args.report)],
                  input_kind="a report being read")
    report = read_report(args.report)
    write_reports(report, [(args.reporter, args.output)])
    return report.summary.exit_code if args.exit_code else 0
