"""A pull request's changed-file list handed to the CLI (`--evidence-changed-files`): what
differs from the merge-base when git cannot tell (docs/cassettes.md, "What is trusted").

The Action writes it from the GitHub API; anyone can write one, so it is read as hostile input:
a regular file of at most `MAX_LIST_BYTES`, UTF-8, either JSON (an array of paths, or an object
`{"files": [...], "source": "..."}`) or plain text with one path a line (blank lines skipped).
Every path is relative to the repository root (`$GITHUB_WORKSPACE`, else the current
directory): an absolute path, a `..` part or a NUL is refused at its line or JSON index (a
path is only compared with the files a run reads, never shown). `source` says where the list
came from, in the run's warnings; it is short plain text (letters, digits, spaces and
`#'().,:/_-`).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from mcptest.errors import ReadBackError
from mcptest.readback.files import decode_utf8, read_regular
from mcptest.readback.json_bounds import JsonLimits, check_json

if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_LIST_BYTES = 8 << 20
MAX_PATHS = 20_000
"""GitHub lists at most 3,000 files a pull request (6,000 names with the renamed ones' old)."""
MAX_PATH_CHARS = 4096
MAX_SOURCE_CHARS = 200
LIMITS = JsonLimits(max_depth=3, max_values=MAX_PATHS + 8)
_SOURCE = re.compile(rf"[A-Za-z0-9 #'().,:/_-]{{1,{MAX_SOURCE_CHARS}}}")
DEFAULT_SOURCE = "the changed-file list given"


@dataclass(frozen=True)
class ChangedList:
    """The listed files, resolved under the root, and where the list says it came from."""

    files: frozenset[Path]
    source: str
    count: int
    """Paths listed (before resolving: two names of one file count twice)."""


def list_root(env: Mapping[str, str], cwd: Path) -> Path:
    """Where the listed paths start: the repository root of a GitHub run, else `cwd`."""
    workspace = env.get("GITHUB_WORKSPACE")
    return Path(workspace) if workspace else cwd


def read_changed_files(path: Path, root: Path) -> ChangedList:
    """The list at `path`; `ReadBackError` naming the file and the line or index if refused."""
    shown = str(path)
    text = decode_utf8(read_regular(path, shown, max_bytes=MAX_LIST_BYTES,
                                    kind="a changed-file list"), shown)
    source = DEFAULT_SOURCE
    if text.lstrip()[:1] in ("[", "{"):
        entries, source = _from_json(text, shown)
    else:
        entries = [(line.removesuffix("\r"), n, "") for n, line in
                   enumerate(text.split("\n"), start=1) if line.strip()]
    if len(entries) > MAX_PATHS:
        raise ReadBackError(f"more than {MAX_PATHS:,} paths", shown)
    files = {_resolved(root, name, shown, line, where) for name, line, where in entries}
    return ChangedList(frozenset(files), source, len(entries))


def _from_json(text: str, shown: str) -> tuple[list[tuple[str, int | None, str]], str]:
    check_json(text.encode("utf-8"), shown, LIMITS)
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ReadBackError(f"not JSON: {getattr(e, 'msg', e)}", shown,
                            line=getattr(e, "lineno", None),
                            column=getattr(e, "colno", None)) from None
    source, where = DEFAULT_SOURCE, ""
    if isinstance(data, dict):
        unknown = sorted(set(data) - {"files", "source"})
        if unknown:
            raise ReadBackError(f"unknown key {unknown[0]!r} (the keys are files, source)",
                                shown, path=unknown[0][:40])
        if "source" in data:
            given = data["source"]
            if not isinstance(given, str) or not _SOURCE.fullmatch(given):
                raise ReadBackError(
                    f"not short plain text (at most {MAX_SOURCE_CHARS} letters, digits, spaces "
                    "and #'().,:/_-)", shown, path="source")
            source = given
        data, where = data.get("files"), "files"
    if not isinstance(data, list):
        raise ReadBackError("not a list of paths", shown, path=where or "<root>")
    entries: list[tuple[str, int | None, str]] = []
    for i, name in enumerate(data):
        at = f"{where}[{i}]" if where else f"[{i}]"
        if not isinstance(name, str):
            raise ReadBackError("not a path (a string)", shown, path=at)
        entries.append((name, None, at))
    return entries, source


def _resolved(root: Path, name: str, shown: str, line: int | None, where: str) -> Path:
    """`root / name` resolved, after `name` is checked to stay under the root."""
    def refuse(why: str) -> ReadBackError:
        return ReadBackError(why, shown, line=line, path=where)

    if not name.strip():
        raise refuse("an empty path")
    if len(name) > MAX_PATH_CHARS:
        raise refuse(f"a path longer than {MAX_PATH_CHARS:,} characters")
    if "\0" in name:
        raise refuse("a path with a NUL")
    pure = PurePosixPath(name)
    if pure.is_absolute():
        raise refuse("an absolute path (give it relative to the repository root)")
    if ".." in pure.parts:
        raise refuse("a path with a '..' part (give it relative to the repository root)")
    try:
        return (root / pure).resolve()
    except (OSError, RuntimeError, ValueError):
        raise refuse("a path that cannot be resolved") from None
