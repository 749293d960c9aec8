"""Reading a saved canonical report back: `report`, `diff`, `merge`, `run --baseline`,
`--shard-weights`, the Action's own reports and its baseline artifacts (docs/reports.md,
"Reading reports back").

A report read back is as untrusted as a suite: a regular file only, at most `MAX_REPORT_BYTES`,
its nesting, values and numbers checked on the bytes before anything is built, then validated
strictly (`"version": true` is not 1, `1e10` is not a count) against the report's models, whose
fields carry their ranges; rows are bounded and their ids unique. The summary is then counted
again from the rows, the exit code included. Anything else is a `ReadBackError` (exit 2) naming
the file and the line or JSON path, never quoting the file's text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, ValidationError

from mcptest.errors import ReadBackError
from mcptest.readback.files import bounded_blocks, decode_utf8, open_regular, too_large
from mcptest.readback.json_bounds import JsonLimits, JsonScan
from mcptest.report.base import Model
from mcptest.report.build import recomputed
from mcptest.report.models import REPORT_VERSION, Report

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

MAX_REPORT_BYTES = 64 << 20
"""A report of 10,000 tests with their answers is about 27 MB."""
MAX_REPORT_VALUES = 4_000_000
"""JSON values (arrays, objects, their members): about 30,000 tests with their answers, or
100,000 with short ones; a value costs about 150 bytes once read."""
MAX_REPORT_DEPTH = 100
"""Nesting: a report's own structure takes 8 levels; answers deeper than 64 are kept as text."""
MAX_REPORT_ROWS = 100_000
"""Rows (tests, their repetitions, and servers): the most cases one table may hold."""
_ROW_KEY = re.compile(rb'"suite_file"\s*:')
"""A key every row and server has: counted on the bytes, rows are bounded before parsing."""
LIMITS = JsonLimits(MAX_REPORT_DEPTH, MAX_REPORT_VALUES)
KIND = "a JSON report written by --reporter json"
_MAX_LISTED_ERRORS = 5
_JSON_AT = re.compile(r"^Invalid JSON: (?P<what>.*) at line (?P<line>\d+) column (?P<col>\d+)$")


@dataclass
class ValuesBudget:
    """Values left for several files read as one run (the shards `merge` combines)."""

    used: int = 0


def read_report(path: str | Path, *, budget: ValuesBudget | None = None) -> Report:
    """Load and check a report written by the `json` reporter; `ReadBackError` says why not."""
    shown = str(path)
    with open_regular(path, shown, kind=KIND) as (f, size):
        if size > MAX_REPORT_BYTES:
            raise too_large(shown, MAX_REPORT_BYTES)
        return report_from_blocks(bounded_blocks(f, shown, MAX_REPORT_BYTES), shown, budget=budget)


def report_from_blocks(chunks: Iterable[bytes], shown: str, *,
                       budget: ValuesBudget | None = None) -> Report:
    """A report from its bytes as they are read or decompressed (each block is scanned before
    the next is asked for, so a bound stops the reading); the caller bounds the total bytes."""
    scan = JsonScan(shown, LIMITS, values_used=budget.used if budget else 0)
    data = bytearray()
    for chunk in chunks:
        scan.feed(chunk)
        data += chunk
    scan.close()
    if budget is not None:
        budget.used = scan.values
    if len(_ROW_KEY.findall(data)) > MAX_REPORT_ROWS:
        raise ReadBackError(f"more than {MAX_REPORT_ROWS:,} rows (tests, repetitions and "
                            "servers)", shown, path="tests")
    return _validated(bytes(data), shown)


def parse_report(text: str | bytes, source: str = "<report>") -> Report:
    """A report from its whole text; `source` names it in error messages."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    if len(data) > MAX_REPORT_BYTES:
        raise too_large(source, MAX_REPORT_BYTES)
    return report_from_blocks([data], source)


class _Head(BaseModel):
    model_config = ConfigDict(extra="ignore")
    version: Any = None


def _validated(data: bytes, shown: str) -> Report:
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        report = Report.model_validate_json(data, strict=True)
    except ValidationError as exc:
        raise _refusal(exc, data, shown) from None
    if "version" not in report.model_fields_set:
        raise ReadBackError("not an mcptest report (no 'version' field)", shown)
    if report.version != REPORT_VERSION:
        raise _unsupported(report.version, shown)
    rows = (len(report.tests) + sum(len(t.repetitions) for t in report.tests)
            + len(report.servers))
    if rows > MAX_REPORT_ROWS:  # what the bytes did not show (a key written another way)
        raise ReadBackError(f"{rows:,} rows (tests, repetitions and servers), more than "
                            f"{MAX_REPORT_ROWS:,}", shown, path="tests")
    first: dict[str, int] = {}
    for k, t in enumerate(report.tests):
        if t.id in first:
            raise ReadBackError(f"the same id as tests.{first[t.id]}; ids are unique in a run",
                                shown, path=f"tests.{k}.id")
        first[t.id] = k
    return recomputed(report)


def _unsupported(version: Any, shown: str) -> ReadBackError:
    if type(version) is not int:
        return ReadBackError(f"'version' must be the integer {REPORT_VERSION}, not "
                             f"{type(version).__name__}", shown, path="version")
    return ReadBackError(f"report version {version} is not supported (this mcptest reads "
                         f"version {REPORT_VERSION})", shown)


def _refusal(exc: ValidationError, data: bytes, shown: str) -> ReadBackError:
    errors = exc.errors(include_input=False, include_url=False)
    first = errors[0]
    if first["type"] == "json_invalid":
        decode_utf8(data, shown)  # a byte that is not UTF-8 is refused as such, where it is
        m = _JSON_AT.match(first["msg"])
        if m is None:
            return ReadBackError("not valid JSON", shown)
        return ReadBackError(f"not valid JSON: {m['what']}", shown, line=int(m["line"]),
                             column=int(m["col"]))
    if first["loc"] == ():
        return ReadBackError("not an mcptest report (expected a JSON object)", shown)
    head = _Head.model_validate_json(data)
    if "version" not in head.model_fields_set:
        return ReadBackError("not an mcptest report (no 'version' field)", shown)
    if type(head.version) is not int or head.version != REPORT_VERSION:
        return _unsupported(head.version, shown)
    problems = [f"{json_path(err['loc']) or '<root>'}: {err['msg']}"
                for err in errors[:_MAX_LISTED_ERRORS]]
    more = len(errors) - len(problems)
    tail = f" (and {more} more)" if more > 0 else ""
    return ReadBackError(f"invalid mcptest report: {'; '.join(problems)}{tail}", shown)


def _field_names(model: type[Model]) -> set[str]:
    return set(model.model_fields).union(*(_field_names(m) for m in model.__subclasses__()))


_FIELDS = frozenset(_field_names(Model))
"""Every field name of the report's models: the only keys a refusal names."""


def json_path(loc: tuple[int | str, ...]) -> str:
    """`tests.1.status`; a key that is not one of the report's own field names is `<key>` (it
    is the file's text, and a refusal never quotes that)."""
    return ".".join(str(p) if isinstance(p, int) or p in _FIELDS else "<key>" for p in loc)
