"""Where the starter suite's stdio server runs: the folder `mcptest init` ran in, written relative
to the suite's folder, so the suite starts the server as `init` did wherever it is run from
(docs/init.md, "Where the server runs")."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

_RELATIVE_PROGRAM = ("./", "../")
"""A program the loader resolves from the suite's folder, `cwd` or not (docs/suites.md)."""


def _from(folder: Path, path: Path) -> str:
    return Path(os.path.relpath(path, folder)).as_posix()


def server_as_written(spec: dict[str, Any], suite_dir: Path, here: Path) -> dict[str, Any]:
    """The server as the suite is written: a stdio server gets `cwd:` (the folder `here`, relative
    to `suite_dir`), and a `./`/`../` program is rewritten to name the same file from `suite_dir`.
    A remote server is left as it is."""
    command = spec.get("command")
    if not isinstance(command, list) or not command:
        return spec
    program, *args = command
    if program.startswith(_RELATIVE_PROGRAM):
        program = _from(suite_dir, here / program)
        program = program if program.startswith("../") else f"./{program}"
    return {**spec, "command": [program, *args], "cwd": _from(suite_dir, here)}


def server_as_loaded(spec: dict[str, Any], suite_dir: Path) -> dict[str, Any]:
    """The written server with its relative paths resolved as the suite loader resolves them
    (`suite/load.py`: a relative `cwd` and a `./`/`../` program from the suite's folder), for
    `init` to connect exactly as the written suite will."""
    command = spec.get("command")
    if not isinstance(command, list) or not command:
        return spec
    program, *args = command
    if program.startswith(_RELATIVE_PROGRAM):
        program = os.path.normpath(suite_dir / program)
    cwd = spec.get("cwd")
    if isinstance(cwd, str) and not os.path.isabs(cwd):
        cwd = os.path.normpath(suite_dir / cwd)
    return {**spec, "command": [program, *args], **({"cwd": cwd} if cwd is not None else {})}
