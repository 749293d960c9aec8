"""Load suite files: YAML with positions → interpolation → validation → cross-checks.

Every mistake found in one pass is reported (`SuiteErrors`), each as one line
`file:line:col: key.path: message`, and nothing runs (exit 2).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from mcptest.errors import SourcePos, SuiteError, SuiteErrors
from mcptest.suite.case_rows import Case, expand, owned_by_cases, read_tables, reread_inline
from mcptest.suite.checks import cross_check
from mcptest.suite.interpolate import env_values, interpolate
from mcptest.suite.models import StdioServer, Suite
from mcptest.suite.positions import Positions, parse_yaml
from mcptest.suite.references import resolve_references
from mcptest.suite.scoring_checks import scoring_checks
from mcptest.suite.validation import suite_errors
from mcptest.suite.yaml_bounds import MAX_FILE_BYTES

__all__ = ["LoadedSuite", "display_path", "load_suite", "load_suites"]


@dataclass(frozen=True, eq=False)
class LoadedSuite:
    """One validated suite file and where each of its nodes is.

    Compared and hashed by identity: each load is its own suite (usable as a dict key).
    """

    path: Path
    """The path as given."""
    display_path: str
    """The path as reports show it: relative to the working directory when inside it, posix."""
    suite: Suite
    positions: Positions = field(repr=False, compare=False)
    cases: dict[tuple[str | int, ...], tuple[Case, ...]] = field(
        default_factory=dict, repr=False, compare=False)
    """Tests with `cases:`, by key path (`("tools", 3)`): one validated test per case."""

    def pos(self, *key_path: str | int) -> SourcePos:
        """Position of a node by its YAML key path, e.g. `pos("tools", 3, "expect", 1)`.

        Falls back to the nearest ancestor that has a position (the file's 1:1 at worst).
        """
        return self.positions.value(key_path)

    def key_pos(self, *key_path: str | int) -> SourcePos:
        """Position of the mapping key that leads to a node (its value's when it has none)."""
        return self.positions.key(key_path)


def display_path(path: Path) -> str:
    """`path` relative to the working directory when it lies inside it, with `/` separators."""
    absolute = Path(os.path.abspath(path))
    try:
        return absolute.relative_to(Path(os.path.abspath(os.getcwd()))).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _read(path: Path, shown: str) -> str:
    """The file's text; only a regular file of at most `MAX_FILE_BYTES` (docs/suites.md, Limits).

    A device or FIFO would hang or never end: the file is opened without blocking and its type
    checked on the open descriptor before anything is read; the read stops past the bound.
    """
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except IsADirectoryError:
        raise SuiteError(f"{shown}: is a directory; give a suite file") from None
    except OSError as e:
        raise SuiteError(f"{shown}: cannot read the file: {e.strerror or e}") from None
    info = os.fstat(fd)
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise SuiteError(f"{shown}: is a directory; give a suite file")
        raise SuiteError(f"{shown}: not a regular file (a device, FIFO or socket); "
                         "give a suite file")
    with os.fdopen(fd, "rb") as f:
        if info.st_size > MAX_FILE_BYTES:
            raise _too_big(shown)
        try:
            raw = f.read(MAX_FILE_BYTES + 1)
        except OSError as e:
            raise SuiteError(f"{shown}: cannot read the file: {e.strerror or e}") from None
    if len(raw) > MAX_FILE_BYTES:
        raise _too_big(shown)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        column = e.start - (raw.rfind(b"\n", 0, e.start) + 1) + 1
        raise SuiteError("the file is not UTF-8 text", SourcePos(shown, line, column)) from None


def _too_big(shown: str) -> SuiteError:
    return SuiteError(f"the file is larger than {MAX_FILE_BYTES // 1024:,} KiB; split the suite",
                      SourcePos(shown, 1, 1))


def _redact(message: str, hidden: set[str]) -> str:
    for value in sorted(hidden, key=len, reverse=True):
        message = message.replace(value, "***")
    return message


def _resolve_paths(suite: Suite, base_dir: Path) -> None:
    """Relative `cwd` and `./`/`../` commands are relative to the suite file's folder."""
    for server in suite.servers.values():
        if not isinstance(server, StdioServer):
            continue
        if server.cwd is not None and not os.path.isabs(server.cwd):
            server.cwd = os.path.normpath(base_dir / server.cwd)
        first = server.command[0]
        if first.startswith(("./", "../")):
            server.command = [os.path.normpath(base_dir / first), *server.command[1:]]


def load_suite(path: Path, *, env: Mapping[str, str]) -> LoadedSuite:
    """Load and check one suite file; raises `SuiteErrors` listing every mistake found."""
    path = Path(path)
    shown = display_path(path)
    try:
        data, positions, errors = parse_yaml(_read(path, shown), shown)
    except SuiteError as e:
        raise SuiteErrors([e]) from None
    base_dir = Path(os.path.abspath(path)).parent
    tables = read_tables(data, positions, base_dir, _read, display_path, errors)
    deferred = {base: table.variables for base, table in tables.items()}
    data = interpolate(data, env, positions, errors, deferred)
    tables = reread_inline(data, tables, positions)
    data, cases = expand(data, tables, positions, errors)
    suite: Suite | None = None
    try:
        suite = Suite.model_validate(data)
    except ValidationError as e:
        errors.extend(x for x in suite_errors(e, data, positions, Suite)
                      if not owned_by_cases(x, tables))
    errors.extend(cross_check(data, positions, base_dir))
    errors.extend(scoring_checks(data, positions))
    if suite is not None:
        resolve_references(suite, cases, positions, base_dir, _read, errors)
    if errors or suite is None:
        hidden = env_values(data.get("variables"), env)
        for error in errors:  # one line per error, whatever a library's message looked like
            error.message = " ".join(_redact(error.message, hidden).split())
        errors.sort(key=lambda e: (e.pos.line, e.pos.column) if e.pos else (0, 0))
        raise SuiteErrors(errors)
    _resolve_paths(suite, base_dir)
    return LoadedSuite(path=path, display_path=shown, suite=suite, positions=positions,
                       cases=cases)


def load_suites(paths: Sequence[Path], *, env: Mapping[str, str]) -> list[LoadedSuite]:
    """Load every file; raises one `SuiteErrors` with the mistakes of all of them."""
    loaded: list[LoadedSuite] = []
    errors: list[SuiteError] = []
    for path in paths:
        try:
            loaded.append(load_suite(path, env=env))
        except SuiteErrors as e:
            errors.extend(e.errors)
    if errors:
        raise SuiteErrors(errors)
    return loaded
