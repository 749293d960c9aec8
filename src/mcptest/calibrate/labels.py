"""Labels files: candidates with the verdict a person gave them (docs/calibration.md).

YAML (`labels: [...]`) goes through the suite loader's position machinery, so a malformed file
is reported at file:line:col with its key like a suite; JSONL (one label object per line) is
reported at its line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError, field_validator

from mcptest.errors import SourcePos, SuiteError, SuiteErrors
from mcptest.suite.models import Strict
from mcptest.suite.positions import Positions, pack, parse_yaml
from mcptest.suite.validation import suite_errors


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


class LabelsFile(Strict):
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


def load_labels(path: Path) -> list[Label]:
    """The labels of one file; `SuiteErrors` (exit 2) naming file:line:col and key if bad."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise SuiteErrors([SuiteError(f"cannot read labels file: {e.strerror}",
                                      SourcePos(str(path), 1, 1))]) from None
    try:
        if path.suffix in (".jsonl", ".ndjson"):
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
    if errors:
        raise SuiteErrors(errors)
    return parsed.labels
