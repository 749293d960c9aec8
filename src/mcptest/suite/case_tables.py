"""Read a test's `cases:` table (inline, CSV, JSON Lines or YAML) with the position of every
value, so a bad case points at its own line and column (docs/suites.md#tables-of-cases).

CSV cells are text, except a cell whose whole text is JSON (`3`, `2.5`, `true`, `null`,
`[1, 2]`, `{"a": 1}`, `"quoted"`), which takes that value; `007` and `-Infinity` stay text (JSON
has neither). A table read from a file is read back as every such file is (`mcptest.readback`):
a JSON cell or a JSON Lines file is checked on its bytes (nesting, values, numbers out of range)
before it is parsed, and refused at its line and column.
"""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcptest.errors import ReadBackError, SourcePos, SuiteError
from mcptest.readback.json_bounds import JsonLimits, check_json
from mcptest.suite.interpolate import NAME
from mcptest.suite.positions import KeyPath, Positions, format_path, parse_yaml_list
from mcptest.suite.yaml_bounds import MAX_DEPTH, MAX_VALUES

MAX_CASES = 100_000
"""Cases in one table (docs/suites.md, Limits): each becomes a test, validated and planned."""
Reader = Callable[[Path, str], str]
"""Reads a file as the suite loader does (bounded, regular files only): path, shown name."""
LIMITS = JsonLimits(MAX_DEPTH, MAX_VALUES)


def _posix(p: Path) -> str:
    return p.as_posix()


@dataclass(frozen=True)
class CaseRow:
    """One case: its name, its variables, and where it and each of its values are."""

    index: int
    name: str
    values: dict[str, Any]
    pos: SourcePos
    cells: dict[str, SourcePos] = field(default_factory=dict)

    def where(self, name: str) -> SourcePos:
        return self.cells.get(name, self.pos)


class AnyName(frozenset[str]):
    """The variables of a table that could not be read: any `${x}` is taken to be the case's,
    so the table's own error is the only one reported."""

    def __contains__(self, name: object) -> bool:
        return True


@dataclass(frozen=True)
class Table:
    rows: tuple[CaseRow, ...]
    variables: frozenset[str]
    """Every variable some case sets: `${x}` for these is left for the case to fill."""
    failed: bool = False


def _cell_value(text: str, pos: SourcePos) -> Any:
    """The cell's JSON value, or its text; `SuiteError` when its JSON breaks a bound."""
    stripped = text.strip()
    if stripped[:1] not in '-0123456789tfn[{"' or stripped.lstrip("-").startswith("Infinity"):
        return text
    try:
        check_json(stripped.encode("utf-8"), pos.file, LIMITS)
    except ReadBackError as e:
        raise SuiteError(f"this cell's JSON: {e.message}", pos) from None
    try:
        return json.loads(stripped)
    except ValueError:
        return text


def _cell_columns(line: str) -> list[int]:
    """1-based start column of each cell of one CSV line (quotes with `""` escapes)."""
    cols: list[int] = []
    i = 0
    while True:
        cols.append(i + 1)
        if line[i:i + 1] == '"':
            i += 1
            while i < len(line):
                if line[i] == '"':
                    if line[i + 1:i + 2] == '"':
                        i += 2
                        continue
                    i += 1
                    break
                i += 1
        j = line.find(",", i)
        if j < 0:
            return cols
        i = j + 1


class _TableReader:
    def __init__(self, errors: list[SuiteError]) -> None:
        self.errors = errors

    def error(self, message: str, pos: SourcePos, key: str = "") -> None:
        self.errors.append(SuiteError(message, pos, key))

    def check_names(self, names: list[str], where: Callable[[str], SourcePos]) -> bool:
        ok = True
        for n in names:
            if not NAME.fullmatch(n):
                self.error(f"case variable `{n}`: a name is letters, digits and `_`, not "
                           "starting with a digit", where(n))
                ok = False
        return ok

    def csv(self, text: str, file: str) -> list[tuple[dict[str, Any], SourcePos,
                                                     dict[str, SourcePos]]]:
        lines = text.splitlines()
        reader = csv.reader(io.StringIO(text, newline=""), strict=True)
        out: list[tuple[dict[str, Any], SourcePos, dict[str, SourcePos]]] = []
        header: list[str] | None = None
        last = 0
        try:
            for row in reader:
                start, last = last + 1, reader.line_num
                if not row or all(not c.strip() for c in row):
                    continue
                cols = (_cell_columns(lines[start - 1]) if start == last
                        and start <= len(lines) else [1] * len(row))
                cells = [SourcePos(file, start, cols[k] if k < len(cols) else 1)
                         for k in range(len(row))]
                if header is None:
                    header = [c.strip() for c in row]
                    names = dict(zip(header, cells, strict=True))
                    if not self.check_names(header, names.__getitem__):
                        return []
                    dupes = [n for n in header if header.count(n) > 1]
                    if dupes:
                        self.error(f"the header names column `{dupes[0]}` twice",
                                   names[dupes[0]])
                        return []
                    continue
                if len(row) != len(header):
                    self.error(f"this row has {len(row)} cells; the header names "
                               f"{len(header)} ({', '.join(header)})", cells[0])
                    continue
                try:
                    values = {h: _cell_value(c, p) for h, c, p in zip(header, row, cells,
                                                                       strict=True)}
                except SuiteError as e:
                    self.errors.append(e)
                    continue
                out.append((values, cells[0], dict(zip(header, cells, strict=True))))
        except csv.Error as e:
            self.error(f"invalid CSV: {e}", SourcePos(file, reader.line_num or 1, 1))
            return []
        if header is None:
            self.error("the CSV file is empty; its first row names the variables",
                       SourcePos(file, 1, 1))
        return out

    def jsonl(self, text: str, file: str) -> list[tuple[dict[str, Any], SourcePos,
                                                       dict[str, SourcePos]]]:
        out: list[tuple[dict[str, Any], SourcePos, dict[str, SourcePos]]] = []
        try:
            check_json(text.encode("utf-8"), file, LIMITS)
        except ReadBackError as e:
            self.error(e.message, SourcePos(file, e.line or 1, e.column or 1))
            return out
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as e:
                self.error(f"invalid JSON: {e.msg}", SourcePos(file, n, e.colno))
                continue
            if not isinstance(value, dict):
                self.error("each line is one JSON object of variables",
                           SourcePos(file, n, len(line) - len(line.lstrip()) + 1))
                continue
            cells = {k: SourcePos(file, n, max(line.find(json.dumps(k)), 0) + 1) for k in value}
            if self.check_names(list(value), cells.__getitem__):
                out.append((value, SourcePos(file, n, 1), cells))
        return out

    def mappings(self, items: list[Any], positions: Positions, base: KeyPath
                 ) -> list[tuple[dict[str, Any], SourcePos, dict[str, SourcePos]]]:
        """Inline `cases:` and YAML files: a list of mappings (other shapes: the model says)."""
        out: list[tuple[dict[str, Any], SourcePos, dict[str, SourcePos]]] = []
        for k, item in enumerate(items):
            if not isinstance(item, dict):
                self.error("a case is a mapping of variable names to values",
                           positions.value((*base, k)), format_path((*base, k)))
                continue
            cells = {key: positions.value((*base, k, key)) for key in item}
            if self.check_names(list(item), cells.__getitem__):
                out.append((item, positions.value((*base, k)), cells))
        return out


def _rows(raw: list[tuple[dict[str, Any], SourcePos, dict[str, SourcePos]]],
          reader: _TableReader) -> Table:
    if len(raw) > MAX_CASES:
        reader.error(f"the table has {len(raw):,} cases, more than {MAX_CASES:,}; split the test",
                     raw[MAX_CASES][1])
        return Table((), frozenset())
    rows: list[CaseRow] = []
    seen: dict[str, SourcePos] = {}
    for index, (values, pos, cells) in enumerate(raw):
        given = values.get("name")
        name = str(index + 1) if given is None or given == "" else str(given)
        where = cells.get("name", pos)
        if name in seen:
            first = seen[name]
            reader.error(f"two cases are named `{name}` (the first on line {first.line}); case "
                         "names make test ids and must be unique", where)
            continue
        seen[name] = where
        rows.append(CaseRow(index, name, values, pos, cells))
    variables = frozenset(k for r in rows for k in r.values)
    return Table(tuple(rows), variables)


def read_table(raw: Any, path: KeyPath, positions: Positions, base_dir: Path, read: Reader,
               errors: list[SuiteError], shown: Callable[[Path], str] = _posix) -> Table:
    """The table of `cases:` at `path`; a failed one when it cannot be read (its errors are
    appended) or is not a table at all (the model reports that)."""
    before = len(errors)
    table = _read_table(raw, path, positions, base_dir, read, errors, shown)
    if table is None or len(errors) > before:
        return Table((), AnyName(), failed=True)
    return table


def _read_table(raw: Any, path: KeyPath, positions: Positions, base_dir: Path, read: Reader,
                errors: list[SuiteError], shown: Callable[[Path], str]) -> Table | None:
    reader = _TableReader(errors)
    if isinstance(raw, list):
        return _rows(reader.mappings(raw, positions, path), reader)
    if not isinstance(raw, dict) or set(raw) != {"file"} or not isinstance(raw["file"], str):
        return None
    name = raw["file"]
    suffix = os.path.splitext(name)[1].lower()
    if suffix not in (".csv", ".jsonl", ".yaml", ".yml"):
        return None
    file = base_dir / name
    display = shown(file)
    try:
        text = read(file, display)
    except SuiteError as e:
        reader.error(f"cases file: {e.message}", e.pos or positions.value((*path, "file")),
                     "" if e.pos else format_path((*path, "file")))
        return None
    if suffix == ".csv":
        return _rows(reader.csv(text, display), reader)
    if suffix == ".jsonl":
        return _rows(reader.jsonl(text, display), reader)
    try:
        items, file_positions, dupes = parse_yaml_list(text, display)
    except SuiteError as e:
        errors.append(e)
        return None
    errors.extend(dupes)
    return _rows(reader.mappings(items, file_positions, ()), reader)
