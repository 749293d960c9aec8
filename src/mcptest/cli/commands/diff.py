"""`mcptest diff OLD NEW`: compare two saved JSON reports (docs/baseline.md)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.cli.compare_options import add_compare_arguments, compare_options
from mcptest.cli.output import write_reports
from mcptest.cli.output_flags import add_single_output
from mcptest.cli.output_paths import check_outputs

if TYPE_CHECKING:
    import argparse

    from mcptest.report.models import Report


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("old", type=Path, help="the baseline report (--reporter json)")
    p.add_argument("new", type=Path, help="the report to compare with it")
    add_single_output(p, default="pretty")
    add_compare_arguments(p)
    p.set_defaults(handler=run)


def only_what_moved(report: Report) -> Report:
    """The report with only the rows whose comparison is not `unchanged` (the comparison and
    the summary still count every row)."""
    moved = {r.id for r in report.comparison.rows if r.change != "unchanged"} \
        if report.comparison is not None else {t.id for t in report.tests}
    return report.model_copy(update={"tests": [t for t in report.tests if t.id in moved]})


def run(args: argparse.Namespace) -> int:
    """Renders NEW with its comparison; exits as `--fail-on` says of NEW against OLD."""
    from mcptest.compare.attach import with_baseline, with_fail_on_not_measured
    from mcptest.report.io import read_report

    check_outputs([(args.reporter, args.output)], [Path(args.old), Path(args.new)],
                  input_kind="a report being read")
    old, new = read_report(args.old), read_report(args.new)
    options = compare_options(args)
    report = with_baseline(new, old, options, source=str(args.old))
    if options.fail_on_not_measured:
        report = with_fail_on_not_measured(report)
    if args.reporter == "pretty":  # the terminal: what changed, not the whole run again
        report = only_what_moved(report)
    write_reports(report, [(args.reporter, args.output)])
    return report.summary.exit_code
