"""The output flags every command spells one way: `--reporter NAME` and `--output PATH`.

Earlier releases spelled them `--format` (`report`, `merge`, `diff`, `surface diff`), `--out`
(`calibrate`) and `--write PATH` (`schema`). Those spellings still work for a release as
deprecated aliases: the help says so, and using one prints a one-line note on stderr
(docs/reports.md, "Output flags").
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcptest.reporters import REPORTERS

if TYPE_CHECKING:
    from collections.abc import Sequence

DEPRECATED_ALIASES: dict[str, str] = {"--format": "--reporter", "--out": "--output",
                                      "--write": "--output"}
"""Old spelling → the one that replaces it; the name test checks no other spelling appears."""


class AliasedStore(argparse.Action):
    """Stores like `store`; given by a deprecated spelling, it says which one replaces it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        bare = self.nargs == "?" and values == self.const  # `schema --write`: not an alias
        if option_string in DEPRECATED_ALIASES and not bare:
            print(f"mcptest: {option_string} is a deprecated alias of "
                  f"{DEPRECATED_ALIASES[option_string]}; it goes in a future release",
                  file=sys.stderr)
        setattr(namespace, self.dest, values)


def alias_note(*aliases: str) -> str:
    """The help text's sentence about the old spellings of a flag."""
    return f"; {', '.join(aliases)}: deprecated alias" if aliases else ""


class ReporterAction(argparse.Action):
    """`--reporter X` starts an output; `--output P` sets the path of the reporter before it."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        outputs: list[list[str | None]] = getattr(namespace, "outputs", None) or []
        if option_string == "--reporter":
            if values not in REPORTERS:
                parser.error(f"--reporter: unknown format {values!r} "
                             f"(choose from {', '.join(REPORTERS)})")
            outputs.append([values, None])
        else:
            if not outputs:
                parser.error("--output must follow the --reporter it belongs to")
            if outputs[-1][1] is not None:
                parser.error(f"--reporter {outputs[-1][0]} already has an --output")
            outputs[-1][1] = values
        namespace.outputs = outputs


def add_reporter_outputs(p: argparse.ArgumentParser, default: str) -> None:
    """`--reporter NAME [--output PATH]`, repeatable in pairs (`run`, `eval`, `lint`)."""
    out = p.add_argument_group("reports")
    out.add_argument("--reporter", action=ReporterAction, dest="outputs", metavar="NAME",
                     help=f"one of {', '.join(REPORTERS)}; may repeat (default: {default})")
    out.add_argument("--output", action=ReporterAction, dest="outputs", metavar="PATH",
                     help="file for the --reporter before it (default: stdout)")


def add_single_output(p: argparse.ArgumentParser, default: str,
                      choices: Sequence[str] = tuple(REPORTERS)) -> None:
    """`--reporter NAME --output PATH` for one rendering (`report`, `merge`, `diff`, `surface
    diff`); `--format` is the old spelling of `--reporter`."""
    p.add_argument("--reporter", "--format", dest="reporter", action=AliasedStore,
                   default=default, choices=list(choices), metavar="NAME",
                   help=f"one of {', '.join(choices)} (default: {default})"
                        + alias_note("--format"))
    p.add_argument("--output", type=Path, metavar="PATH",
                   help="file to write (default: stdout)")
