"""`mcptest validate [FILES...]`: load suites and report every mistake, without running anything.

Kept light on purpose: this path imports neither the MCP SDK, litellm, httpx nor jinja2. With
`--connect` it also starts the suites' servers and checks every tool, prompt and resource
template the suite names against what they list (mcptest.surface.names); that path imports
the MCP client.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

from mcptest.cli.run_arguments import add_suite_arguments, suite_files
from mcptest.errors import SuiteErrors
from mcptest.exit_codes import ExitCode

if TYPE_CHECKING:
    import argparse

    from mcptest.suite.load import LoadedSuite
    from mcptest.surface.names import NameCheck


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = ("Load every suite file and print `ok: FILE (…)` on stdout, or each error "
                     "as `file:line:col: key.path: message` on stderr (exit 2).")
    add_suite_arguments(p)
    p.add_argument("--connect", action="store_true",
                   help="also start the servers and check that every tool, prompt and resource "
                        "the suite names is one they list (exit 2 if not, 3 if a server never "
                        "becomes ready)")
    p.set_defaults(handler=run)


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def run(args: argparse.Namespace) -> int:
    from mcptest.judging.model_checks import suite_model_errors
    from mcptest.suite.advice import load_warnings
    from mcptest.suite.load import load_suite

    env = dict(os.environ)
    failed = not_ready = False
    for path in suite_files(args):
        try:
            loaded = load_suite(path, env=env)
            if errors := suite_model_errors(loaded, env):  # names a provider would refuse
                raise SuiteErrors(errors)
        except SuiteErrors as e:
            failed = True
            for error in e.errors:
                print(" ".join(str(error).split()), file=sys.stderr)
            continue
        suite = loaded.suite
        for warning in load_warnings(loaded):
            print(f"warning: {warning}", file=sys.stderr)
        if args.connect:
            check = _connect(loaded, env)
            for w in check.warnings:
                print(f"warning: {w}", file=sys.stderr)
            for line in [*map(str, check.errors), *check.not_ready]:
                print(" ".join(line.split()), file=sys.stderr)
            not_ready = not_ready or bool(check.not_ready)
            if check.errors or check.not_ready:
                failed = failed or bool(check.errors)
                continue
        extra = "".join(f", {_count(n, word)}" for n, word in (
            (len(suite.resources), "resource test"), (len(suite.prompts), "prompt test"),
            (len(suite.lists), "list test"),
            (sum(len(c) for c in loaded.cases.values()), "case row"),
            # a selection block is one row per model (docs/selection.md)
            (sum(len(s.models) for s in suite.selection.values()), "selection test"),
            (sum(len(s.prompts) for s in suite.selection.values()), "selection prompt")) if n)
        print(f"ok: {loaded.display_path} ({_count(len(suite.tools), 'tool')}, "
              f"{_count(len(suite.evals), 'eval')}, {_count(len(suite.agents), 'agent')}"
              f"{extra})")
    if failed:
        return ExitCode.USAGE_ERROR
    return ExitCode.SERVER_NOT_READY if not_ready else ExitCode.OK


def _connect(loaded: LoadedSuite, env: dict[str, str]) -> NameCheck:
    import anyio

    from mcptest.surface.names import check_names

    return anyio.run(check_names, loaded, env)
