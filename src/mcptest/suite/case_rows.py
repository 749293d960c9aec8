"""A test with `cases:` → one validated test per case (docs/suites.md#tables-of-cases).

The suite's own `${var}` are filled first (`interpolate`, which leaves the case variables alone);
here each case fills the rest, the same way: a string that is exactly one `${x}` takes the case's
value with its type, elsewhere the value is written into the string, `$${` is a literal `${`.
Each case is validated as the test's own model; a mistake a case brings points at that case's
value in its file, a mistake of the test itself at the test.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, get_args

from pydantic import BaseModel, ValidationError

from mcptest.errors import SourcePos, SuiteError
from mcptest.suite.models.suite import Suite
from mcptest.suite.positions import KeyPath, Positions, format_path

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcptest.suite.case_tables import CaseRow, Reader, Table

CASE_GROUPS = ("tools", "resources", "prompts", "evals", "agents")
"""The sections whose tests may have `cases:`."""


def _test_model(group: str) -> type[BaseModel]:
    """The model of one test of a section (`ToolTest` for `tools`), built with the section."""
    model: type[BaseModel] = get_args(Suite.section_type(group))[0]
    return model
MAX_ERRORS_PER_TABLE = 20
_REF = re.compile(r"\$\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_WHOLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_KEPT = ("name", "cases")
"""Keys a case never fills: the test's name (rows are named by case) and the table itself."""


@dataclass(frozen=True)
class Case:
    """One row of a table: the case and the test it made."""

    row: CaseRow
    spec: Any


def read_tables(data: dict[str, Any], positions: Positions, base_dir: Path, read: Reader,
                shown: Callable[[Path], str], errors: list[SuiteError]
                ) -> dict[KeyPath, Table]:
    """Every test's table, by the test's key path (`("tools", 3)`)."""
    out: dict[KeyPath, Table] = {}
    for group in CASE_GROUPS:
        tests = data.get(group)
        for i, test in enumerate(tests if isinstance(tests, list) else []):
            if isinstance(test, dict) and test.get("cases") is not None:
                from mcptest.suite.case_tables import read_table  # only for a suite with tables

                out[(group, i)] = read_table(test["cases"], (group, i, "cases"), positions,
                                             base_dir, read, errors, shown)
    return out


def reread_inline(data: dict[str, Any], tables: dict[KeyPath, Table], positions: Positions
                  ) -> dict[KeyPath, Table]:
    """Inline tables again, from the interpolated data: a case value may use `${suite_var}`."""
    out = dict(tables)
    for (group, i), table in tables.items():
        raw = data[str(group)][int(i)].get("cases")
        if isinstance(raw, list) and not table.failed:
            from mcptest.suite.case_tables import read_table

            out[(group, i)] = read_table(raw, (group, i, "cases"), positions, Path(), _no_read,
                                         [])
    return out


def _no_read(path: Path, shown: str) -> str:
    raise AssertionError("inline tables read no file")


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


class _Filler:
    """Fills one case into a test's data; remembers which case variables each path used."""

    def __init__(self, row: CaseRow, variables: frozenset[str]) -> None:
        self.row = row
        self.variables = variables
        self.used: dict[KeyPath, str] = {}
        self.missing: list[tuple[str, KeyPath]] = []

    def walk(self, value: Any, path: KeyPath) -> Any:
        if isinstance(value, str):
            return self.string(value, path) if "${" in value else value
        if isinstance(value, dict):
            return {k: v if not path and k in _KEPT else self.walk(v, (*path, k))
                    for k, v in value.items()}
        if isinstance(value, list):
            return [self.walk(v, (*path, i)) for i, v in enumerate(value)]
        return value

    def lookup(self, name: str, path: KeyPath) -> Any:
        self.used.setdefault(path, name)
        if name not in self.row.values:
            self.missing.append((name, path))
            return None
        return self.row.values[name]

    def string(self, text: str, path: KeyPath) -> Any:
        whole = _WHOLE.fullmatch(text)
        if whole and whole.group(1) in self.variables:
            return self.lookup(whole.group(1), path)

        def one(m: re.Match[str]) -> str:
            if m.group(0) == "$${":
                return "${"
            if m.group(1) in self.variables:
                return _text(self.lookup(m.group(1), path))
            return m.group(0)

        return _REF.sub(one, text)


class _CasePositions(Positions):
    """Positions for a case's validation errors: the case's cell when a case variable made
    the value, else the test's own node in the suite file."""

    _base: KeyPath
    _filler: _Filler

    def __init__(self, suite: Positions, base: KeyPath, filler: _Filler) -> None:
        super().__init__(suite.file, suite.values, suite.keys)
        object.__setattr__(self, "_base", base)
        object.__setattr__(self, "_filler", filler)

    def _cell(self, path: KeyPath) -> SourcePos | None:
        filler = self._filler
        for end in range(len(path), 0, -1):
            name = filler.used.get(path[:end])
            if name is not None:
                return filler.row.where(name)
        return None

    def value(self, path: KeyPath) -> SourcePos:
        return self._cell(path) or super().value((*self._base, *path))

    def key(self, path: KeyPath) -> SourcePos:
        return self._cell(path) or super().key((*self._base, *path))


def _prefixed(base: KeyPath, key_path: str) -> str:
    head = format_path(base)
    if not key_path:
        return head
    return head + (key_path if key_path.startswith("[") else "." + key_path)


def expand(data: dict[str, Any], tables: dict[KeyPath, Table], positions: Positions,
           errors: list[SuiteError]) -> tuple[dict[str, Any], dict[KeyPath, tuple[Case, ...]]]:
    """Each table's cases as tests, and `data` with each tabled test shown as its first case
    (so the suite validates with real values; its own errors there are the cases' to report).
    """
    cases: dict[KeyPath, tuple[Case, ...]] = {}
    data = {**data}
    for base, table in tables.items():
        group, i = base
        model = _test_model(str(group))
        template = data[str(group)][int(i)]
        made: list[Case] = []
        found: list[SuiteError] = []
        for row in table.rows:
            filler = _Filler(row, table.variables)
            filled = filler.walk(template, ())
            for name, path in filler.missing:
                found.append(SuiteError(
                    f"case `{row.name}` gives no value for `{name}` (another case does)",
                    row.pos, _prefixed(base, format_path(path))))
            try:
                made.append(Case(row, model.model_validate(filled)))
            except ValidationError as e:
                from mcptest.suite.validation import suite_errors  # only for a case's mistakes

                for err in suite_errors(e, filled, _CasePositions(positions, base, filler),
                                        model):
                    err.key_path = _prefixed(base, err.key_path)
                    if err.pos == row.pos or err.pos in row.cells.values():
                        err.message += f" (case `{row.name}`)"
                    found.append(err)
            if len(found) >= MAX_ERRORS_PER_TABLE:
                found.append(SuiteError(
                    f"stopped after {len(found)} errors in this test's cases",
                    positions.value((*base, "cases")), _prefixed(base, "cases")))
                break
        errors.extend(_dedupe(found))
        cases[base] = tuple(made)
        if table.rows:
            tests = list(data[str(group)])
            tests[int(i)] = _Filler(table.rows[0], table.variables).walk(template, ())
            data[str(group)] = tests
    return data, cases


def owned_by_cases(error: SuiteError, tables: dict[KeyPath, Table]) -> bool:
    """A suite-level error inside a tabled test (not its `cases:`): the cases report it."""
    for base, table in tables.items():
        head = format_path(base)
        if (table.rows or table.failed) and error.key_path.startswith(head) and \
                not error.key_path.startswith(
                head + ".cases"):
            return True
    return False


def _dedupe(found: list[SuiteError]) -> list[SuiteError]:
    """A mistake of the test itself shows once, not once per case."""
    seen: dict[tuple[str, str, str], SuiteError] = {}
    for e in found:
        plain = e.message.rsplit(" (case `", 1)[0]
        seen.setdefault((str(e.pos), e.key_path, plain), e)
    return list(seen.values())
