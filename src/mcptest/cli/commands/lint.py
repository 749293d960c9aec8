"""`mcptest lint [FILES...]`: protocol, quality and surface rules on the suites' servers.

Needs no key and imports no litellm. Exit 0 when no error-level finding remains (expected ones
excepted), 1 otherwise, 3 when a server never became ready (docs/lint.md).
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

import anyio

from mcptest.cli.output import write_reports
from mcptest.cli.output_flags import add_reporter_outputs
from mcptest.cli.run_arguments import add_suite_arguments, reporter_outputs, suite_files

if TYPE_CHECKING:
    import argparse

    from mcptest.suite.load import LoadedSuite


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Connect to each suite's servers and check every message on the wire, "
                     "tool names, schemas, descriptions, annotations and the surface snapshot "
                     "(see docs/lint.md).")
    add_suite_arguments(p)
    p.add_argument("--update", action="store_true",
                   help="rewrite the suites' surface snapshots instead of comparing them")
    add_reporter_outputs(p, default="pretty")
    # reporter_outputs() also checks the judge options of `run`; lint has none.
    p.set_defaults(handler=run, concurrency=None, max_cost=None)


def run(args: argparse.Namespace) -> int:
    import logging

    from mcptest.lint.lint_all import lint_all
    from mcptest.suite.load import load_suites

    outputs = reporter_outputs(args)
    # The SDK logs a traceback for each message it cannot parse; the wire-schema rule
    # reports those messages itself, once, with the schema path.
    for name in ("mcp", "client"):  # the SDK's client session logs as "client"
        logging.getLogger(name).setLevel(logging.CRITICAL)
    env = dict(os.environ)
    suites = load_suites(suite_files(args), env=env)
    report, secrets = anyio.run(lambda: lint_all(suites, env, update=args.update))
    from mcptest.report.redact import redact_text

    for line in report.warnings:
        print(f"error: {redact_text(line, secrets)}", file=sys.stderr)
    write_reports(report, outputs, secrets=secrets)
    if args.update:
        _say_updates(suites)
    return report.summary.exit_code


def _say_updates(suites: list[LoadedSuite]) -> None:
    """What `--update` wrote, and which suites it could write nothing for."""
    from mcptest.lint.surface_check import snapshot_path
    from mcptest.suite.load import display_path

    for loaded in suites:
        check = loaded.suite.surface
        if check is None:
            print(f"lint --update: {loaded.display_path} has no `surface:` key, so no snapshot "
                  "was written (add `surface: {snapshot: surface.json}`; docs/lint.md)",
                  file=sys.stderr)
        else:
            print(f"lint --update: wrote {display_path(snapshot_path(loaded, check))} "
                  f"({loaded.display_path})", file=sys.stderr)
