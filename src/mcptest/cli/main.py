"""The `mcptest` command: a root parser, one subparser per command, dict dispatch."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from mcptest import __version__
from mcptest.cli.error_handler import handle_errors

# name → module; each module has `add_parser(sub)` (which sets `handler`) and `run(args) -> int`.
COMMANDS: dict[str, str] = {
    "run": "mcptest.cli.commands.run",
    "eval": "mcptest.cli.commands.eval",
    "validate": "mcptest.cli.commands.validate",
    "schema": "mcptest.cli.commands.schema",
    "report": "mcptest.cli.commands.report",
    "merge": "mcptest.cli.commands.merge",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mcptest",
        description="Test MCP servers: deterministic checks, LLM judges and juries, CI reports.",
    )
    parser.add_argument("--version", action="version", version=f"mcptest {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module_name in COMMANDS.values():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as e:
            if e.name != module_name:
                raise
            continue  # a command that has not landed yet
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and of the Action's entrypoint; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(list(argv) if argv is not None else None)
    with handle_errors() as outcome:
        outcome.code = int(args.handler(args))
    sys.stdout.flush()
    return outcome.code


if __name__ == "__main__":
    raise SystemExit(main())
