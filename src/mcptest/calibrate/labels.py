"""Labels files: candidates with the verdict a person gave them (docs/calibration.md).

YAML (`labels: [...]`) goes through the suite loader's position machinery, so a malformed file
is reported at file:line:col with its key like a suite; JSONL (one label object per line) is
reported at its line. The file is read as every file read back is (`mcptest.readback`): a
regular file of at most `MAX_LABELS_BYTES`, a JSONL file's nesting, values and numbers checked
on its bytes before a line is parsed; two labels with one `id` are refused.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from pydantic import Field, ValidationError, field_validator

from mcptest.errors import ReadBackError, SourcePos, SuiteError, SuiteErrors
from mcptest.readback.files import FileRefused, bound_text, decode_utf8, read_regular
from mcptest.readback.json_bounds import JsonLimits, check_json
from mcptest.suite.models import Strict
from mcptest.suite.positions import Positions, pack, parse_yaml
from mcptest.suite.validation import suite_errors
from mcptest.suite.yaml_bounds import MAX_DEPTH, MAX_VALUES

if TYPE_CHECKING:
    from pathlib import Path

MAX_LABELS_BYTES = 16 << 20
"""A labels file larger than this is refused (10,000 labels of 1 KB each fit)."""
LIMITS = JsonLimits(MAX_DEPTH, MAX_VALUES)


class Label(Strict):
    """One candidate and the humans' verdict on it."""

    id: str | None = None
    candidate: Any = Field(description="The text (or tool result) the judge is shown.")
    human: Literal["pass", "fail"] | float = Field(
        description="`pass`/`fail`, or a score in [0, 1] (pass when ≥ the rubric's threshold).")
    by: str | None = Field(default=None, description="Who labelled it.")
    note: str | None = None

    @field_validator("human")
    @classmethod
    def _in_range(cls, v: str | float) -> str | float:
        if not isinstance(v, str) and not 0.0 <= v <= 1.0:
            raise ValueError("a human score must be in [0, 1]")
        return v

    def passed(self, threshold: float) -> bool:
        if isinstance(self.human, str):
            return self.human == "pass"
        return self.human >= threshold

    @property
    def score(self) -> float | None:
        return None if isinstance(self.human, str) else float(self.human)


class AuditBlock(Strict):
    """A sheet drawn by `mcptest label --sample` (docs/statistics.md, "Audit samples")."""

    report: str = Field(description="The run report the sample was drawn from.")
    seed: int = Field(description="The sample's seed.")
    population: int = Field(ge=0, description="Judged verdicts the sample was drawn from.")
    judge: dict[str, Literal["pass", "fail"]] = Field(
        description="What the judge said on each sampled verdict, by label id.")


class LabelsFile(Strict):
    audit: AuditBlock | None = None
    labels: list[Label] = Field(min_length=1)


def _jsonl(text: str, file: str) -> tuple[dict[str, Any], Positions]:
    positions = Positions(file)
    labels: list[Any] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            raise SuiteError(f"invalid JSON: {e.msg}", SourcePos(file, number, e.colno)) from None
        positions.values[("labels", len(labels))] = pack(number, 1)
        labels.append(item)
    if not labels:
        raise SuiteError("the labels file is empty", SourcePos(file, 1, 1))
    return {"labels": labels}, positions


def _text(path: Path, jsonl: bool) -> str:
    shown = str(path)
    try:
        raw = read_regular(path, shown, max_bytes=MAX_LABELS_BYTES, kind="a labels file")
        if jsonl:
            check_json(raw, shown, LIMITS)
        return decode_utf8(raw, shown)
    except FileRefused as e:
        what = (f"larger than {bound_text(MAX_LABELS_BYTES)}" if e.too_large else e.message)
        raise SuiteError(f"cannot read labels file: {what}", SourcePos(shown, 1, 1)) from None
    except ReadBackError as e:
        raise SuiteError(e.message, SourcePos(shown, e.line or 1, e.column or 1)) from None


def _duplicates(labels: list[Label], positions: Positions) -> list[SuiteError]:
    """Two labels with one id would be counted twice: the second is an error."""
    first: dict[str, int] = {}
    errors = []
    for k, label in enumerate(labels):
        if label.id is None:
            continue
        if label.id in first:
            errors.append(SuiteError(f"the same id as labels[{first[label.id]}]; label ids are "
                                     "unique", positions.value(("labels", k)),
                                     f"labels[{k}].id"))
        else:
            first[label.id] = k
    return errors


def load_labels(path: Path) -> list[Label]:
    """The labels of one file; `SuiteErrors` (exit 2) naming file:line:col and key if bad."""
    return load_labels_file(path).labels


def load_labels_file(path: Path) -> LabelsFile:
    """The whole file: its labels and, for an audit sheet, its `audit:` block."""
    jsonl = path.suffix in (".jsonl", ".ndjson")
    try:
        text = _text(path, jsonl)
        if jsonl:
            data, positions = _jsonl(text, str(path))
            errors: list[SuiteError] = []
        else:
            data, positions, errors = parse_yaml(text, str(path))
    except SuiteError as e:
        raise SuiteErrors([e]) from None
    try:
        parsed = LabelsFile.model_validate(data)
    except ValidationError as e:
        raise SuiteErrors([*errors, *suite_errors(e, data, positions, LabelsFile)]) from None
    errors += _duplicates(parsed.labels, positions)
    if errors:
        raise SuiteErrors(errors)
    return parsed
