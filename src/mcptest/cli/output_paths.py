"""Report paths are checked before anything runs, and each report is written atomically.

docs/reports.md ("Output files"): a bad `--output` used to surface only after every server ran
and every judge was paid, as an internal error that also lost the reports after it. Now every
path is checked up front (exit 2), and a write goes to a temporary file in the same folder that
is renamed over the target, so a reader never sees half a report and a symlink is never followed.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.errors import OutputNotWritten, UsageError

if TYPE_CHECKING:
    from collections.abc import Sequence


def _shown(fmt: str, path: Path) -> str:
    return f"--output {path} ({fmt} report)"


def _nearest_existing(path: Path) -> Path:
    for parent in path.parents:
        if os.path.lexists(parent):
            return parent
    return Path(".")


def _problem(path: Path, protected: dict[str, str]) -> str | None:
    """Why `path` cannot take a report, or None when it can."""
    if os.path.islink(path):
        return "is a symbolic link; give the real path (links are never written through)"
    absolute = os.path.realpath(path)
    if absolute in protected:
        return f"is {protected[absolute]}; reports never overwrite their inputs"
    if os.path.lexists(path):
        mode = os.stat(path).st_mode
        if stat.S_ISDIR(mode):
            return "is a directory; give a file path"
        if not stat.S_ISREG(mode):
            return "is not a regular file (omit --output to write to stdout)"
    folder = _nearest_existing(path)
    if not folder.is_dir():
        return f"cannot be created: {folder} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"cannot be written: no permission to write in {folder}"
    return None


def check_outputs(
    outputs: Sequence[tuple[str, Path | None]], inputs: Sequence[Path] = (), *,
    input_kind: str = "a suite file being run",
) -> None:
    """Raise one `UsageError` listing every output that cannot be written (exit 2)."""
    protected = {os.path.realpath(p): input_kind for p in inputs}
    taken: dict[str, str] = {}
    problems: list[str] = []
    for fmt, path in outputs:
        if path is None:
            continue
        why = _problem(path, protected)
        real = os.path.realpath(path)
        if why is None and real in taken:
            why = f"is also the {taken[real]} report's output; give each report its own file"
        taken.setdefault(real, fmt)
        if why is not None:
            problems.append(f"{_shown(fmt, path)}: {why}")
    if problems:
        raise UsageError("\n".join(problems))


def write_atomically(path: Path, text: str) -> None:
    """Write `text` to a temporary file beside `path`, then rename it over `path`."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temp = path.with_name(f".{path.name}.{secrets.token_hex(4)}.tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def not_written(what: str, where: object, error: OSError) -> str:
    """How a write the machine refused is said: `cannot write the WHAT to WHERE: REASON`."""
    return f"cannot write the {what} to {where}: {error.strerror or error}"


def write_checked(path: Path, text: str, what: str) -> None:
    """`write_atomically` to a path `check_outputs` passed: a failure now is the disk's (full,
    an I/O error), said as such (`OutputNotWritten`, exit 74), never as a bug of ours."""
    try:
        write_atomically(path, text)
    except OSError as e:
        raise OutputNotWritten(not_written(what, path, e)) from None
