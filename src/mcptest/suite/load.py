"""Load suite files: YAML with positions → interpolation → validation → cross-checks.

Every mistake found in one pass is reported (`SuiteErrors`), each as one line
`file:line:col: key.path: message`, and nothing runs (exit 2).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mcptest.errors import ReadBackError, SourcePos, SuiteError, SuiteErrors
from mcptest.readback.files import FileRefused, decode_utf8, read_regular
from mcptest.suite.case_rows import Case, expand, owned_by_cases, read_tables, reread_inline
from mcptest.suite.checks import cross_check
from mcptest.suite.interpolate import env_values, interpolate
from mcptest.suite.models.suite import Suite
from mcptest.suite.positions import Positions, parse_yaml
from mcptest.suite.references import resolve_references
from mcptest.suite.scoring_checks import scoring_checks
from mcptest.suite.sections import validate_sections
from mcptest.suite.yaml_bounds import MAX_FILE_BYTES

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

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

    Read as every file read back is (`mcptest.readback.files`): a device or FIFO is refused
    before a byte is read, and the read stops past the bound.
    """
    try:
        raw = read_regular(path, shown, max_bytes=MAX_FILE_BYTES, kind="a suite file")
    except FileRefused as e:
        if e.too_large:
            raise SuiteError(f"the file is larger than {MAX_FILE_BYTES // 1024:,} KiB; split "
                             "the suite", SourcePos(shown, 1, 1)) from None
        raise SuiteError(f"{shown}: {e.message}") from None
    try:
        return decode_utf8(raw, shown)
    except ReadBackError as e:
        raise SuiteError(e.message, SourcePos(shown, e.line or 1, e.column or 1)) from None


def _redact(message: str, hidden: set[str]) -> str:
    for value in sorted(hidden, key=len, reverse=True):
        message = message.replace(value, "***")
    return message


def _resolve_paths(suite: Suite, base_dir: Path) -> None:
    """Relative `cwd` and `./`/`../` commands are relative to the suite file's folder."""
    if not suite.servers:
        return
    from mcptest.suite.models.servers import StdioServer  # built with the section

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
    suite, invalid = validate_sections(data)
    if invalid:
        from mcptest.suite.validation import located_errors  # only for a file with mistakes

        errors.extend(x for x in located_errors(invalid, data, positions, Suite)
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
