"""`mcptest view REPORT.json --output view.html`: a saved run as one offline HTML page, read test
by test (docs/view.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import argparse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("report", type=Path,
                   help="a report written by --reporter json (a merged or compared one too)")
    p.add_argument("--output", type=Path, metavar="PATH", default=None,
                   help="the HTML file to write (default: beside the report, REPORT.view.html: "
                        "out/run.json gives out/run.view.html)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from mcptest.cli.output_paths import check_outputs, write_checked
    from mcptest.report.io import read_report
    from mcptest.report.redact import redact_report
    from mcptest.reporters.viewer import render

    # beside the report by default: where its run's files already are (and are ignored), not
    # wherever the command happens to be run from
    output = args.output or args.report.with_name(f"{args.report.stem}.view.html")
    check_outputs([("html", output)], [Path(args.report)], input_kind="a report being read")
    report = redact_report(read_report(args.report))
    write_checked(output, render(report), "HTML viewer")
    print(f"mcptest: wrote {output} ({len(report.tests)} test(s))")
    return 0
