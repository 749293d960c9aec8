"""Entry point of the `mcptest` command (every main.py here is an entry point).

A root parser, one subparser per command, dict dispatch."""

from __future__ import annotations

import argparse
import atexit
import gc
import importlib
import os
import sys
import threading
from typing import TYPE_CHECKING

from mcptest.cli.error_handler import Outcome, handle_errors, to_stderr
from mcptest.exit_codes import ExitCode
from mcptest.run.signal_latch import SignalLatch, unblock_stops
from mcptest.version import __version__

if TYPE_CHECKING:
    from collections.abc import Sequence

# name → (module, one-line help): the one list of commands. Each module has
# `add_arguments(p)` (which sets `handler`) and `run(args) -> int`; only the module of the
# command being run is imported: `validate` must not pay for the runner, the reporters or the
# report models, and `--version`/`--help` for none of them.
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("mcptest.cli.commands.run",
            "run tool tests and agent tests (evals too with --with-evals)"),
    "eval": ("mcptest.cli.commands.eval",
             "run rubric evals and the judged assertions of tool tests"),
    "validate": ("mcptest.cli.commands.validate", "check suite files without running them"),
    "schema": ("mcptest.cli.commands.schema", "print the JSON Schema of suite files"),
    "report": ("mcptest.cli.commands.report", "re-render a saved JSON report"),
    "view": ("mcptest.cli.commands.view", "write an offline HTML viewer of a saved JSON report"),
    "merge": ("mcptest.cli.commands.merge", "combine shard reports into one"),
    "diff": ("mcptest.cli.commands.diff", "compare two saved JSON reports: baseline, then new"),
    "surface": ("mcptest.cli.commands.surface",
                "snapshot a server's surface, or diff two snapshots"),
    "lint": ("mcptest.cli.commands.lint",
             "check servers against protocol and quality rules (no key needed)"),
    "init": ("mcptest.cli.commands.init", "write a starter suite from what a server lists"),
    "calibrate": ("mcptest.cli.commands.calibrate", "measure a judge against human labels"),
    "label": ("mcptest.cli.commands.label",
              "draw a random audit sample of a run's judged verdicts, or estimate its pass "
              "rate from a labelled one"),
    "demo-judge": ("mcptest.cli.commands.demo_judge",
                   "run a command with a scripted loopback judge (no key; measures nothing)"),
}
LATCHED = frozenset({"run", "eval"})
"""Commands whose run writes its reports when a signal stops it: their process holds SIGTERM and
SIGINT from its first line (`run/signal_latch.py`)."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The full parser of `command`; the other commands get a placeholder with their help (all
    of them without a command: `--version`, `--help`)."""
    parser = argparse.ArgumentParser(
        prog="mcptest",
        description="Test MCP servers: deterministic checks, LLM judges and juries, CI reports.",
    )
    parser.add_argument("--version", action="version", version=f"mcptest {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module_name, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text[:1].upper() + help_text[1:]
                           + ".")  # a command's own module may say more
        if name == command:
            importlib.import_module(module_name).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script and of the Action's entrypoint; returns the exit code.

    Without `argv` (the console script, `python -m mcptest`) the process is ours, and so is its
    garbage collector: off while the command's modules import, then everything alive is frozen
    (never walked again) and it runs over what the run makes; at the end what is left is frozen
    too, so the exit does not walk it. Start-up makes tens of thousands of objects that live until
    exit, and walking them was a quarter of a judged eval's cold start (docs/architecture.md,
    "Costs"). `run` and `eval` also hold SIGTERM/SIGINT from here (`LATCHED`): a signal before
    their run stops it as it starts, with every report written; one after it, or with no run,
    makes the exit 130. Callers that pass `argv` (tests, in-process) keep their collector and
    their signal handlers as they are; the Action's CLI process is a program (`CLI_BOOT`).
    """
    program = argv is None
    argv = list(argv) if argv is not None else sys.argv[1:]
    command = next((a for a in argv if not a.startswith("-")), None)
    latch = SignalLatch().install() if program and command in LATCHED else None
    if program:  # the Action starts its CLI with them blocked: one that came meanwhile comes
        unblock_stops()  # now, to the latch (run, eval) or to the default (the others)
        gc.disable()
        if sys.stderr is None:  # `2>&-`: print(file=None) writes to stdout, into a report;
            # the null device is the process's stderr until it ends
            sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115
    held = None
    try:
        with handle_errors() as outcome:
            try:
                parser = build_parser(command if command in COMMANDS else None)
                args = parser.parse_args(argv)
                if program:
                    gc.freeze()
                    gc.enable()
                args.signal_latch = latch
                outcome.code = int(args.handler(args))
            finally:
                held = latch.release() if latch is not None else None
    except SystemExit:  # argparse's own exit (a bad flag): a signal it held still counts
        if held is None:
            raise
        outcome.code = ExitCode.USAGE_ERROR
    if held is not None and outcome.code not in (ExitCode.INTERRUPTED,
                                                  ExitCode.INTERNAL_ERROR):
        to_stderr(f"mcptest: {held} received: stopped")  # what it had to write
        outcome.code = ExitCode.INTERRUPTED  # is written; a bug of ours stays the first said
    _flush_stdout(outcome)
    if program:
        gc.freeze()
        _exit_now(outcome.code)
    return outcome.code


def _flush_stdout(outcome: Outcome) -> None:
    """What is left in stdout's buffer, out before the exit: a reader gone is exit 74 with no
    word, a disk that refuses it is said (error_handler's rules); a bug of ours or a stop keeps
    its own code."""
    if sys.stdout is None:
        return
    keep = outcome.code in (ExitCode.INTERNAL_ERROR, ExitCode.INTERRUPTED)
    with handle_errors() as flushed:
        sys.stdout.flush()
    if flushed.code != ExitCode.OK and not keep:
        outcome.code = flushed.code


def _exit_now(code: int) -> None:
    """End the console script's process here, its reports written and its output flushed:
    the exit handlers run (logging's flush, any library's), and the interpreter's teardown of
    every module and object, a tenth of a one-answer run (docs/architecture.md, "Costs"), is
    skipped. Returns, leaving the exit to the interpreter, while another thread is alive (it
    would be killed, not joined) or when the output cannot be flushed."""
    if threading.active_count() > 1:
        return
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):
        return
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    raise SystemExit(main())
