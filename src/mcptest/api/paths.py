"""Which suite files a run loads, as `mcptest run FILE…` takes them (stdlib only: every command
that reads suites imports this at start-up)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from mcptest.errors import UsageError

DEFAULT_FILES = ("mcptest.yaml", "mcptest.yml")
SuitePaths = str | os.PathLike[str] | Iterable[str | os.PathLike[str]]
"""One suite file, or several; none: `mcptest.yaml` or `mcptest.yml` in the working folder."""


def suite_paths(given: SuitePaths) -> list[Path]:
    """`given` as paths; when empty, the default file of the working folder."""
    files = ([Path(given)] if isinstance(given, str | os.PathLike)
             else [Path(p) for p in given])
    if files:
        return files
    for name in DEFAULT_FILES:
        if Path(name).is_file():
            return [Path(name)]
    raise UsageError("no suite file given and no mcptest.yaml or mcptest.yml in this folder")
