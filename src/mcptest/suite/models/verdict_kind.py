"""`verdict_kind`, `labels`, `passing_labels`, `score_range`: what each juror of a jury returns
and how its verdicts become one (docs/jury.md, "Verdict modes").

Without `verdict_kind` a jury keeps its quorum rule (each juror scores 0..1 against `threshold`,
the passing weight against `quorum`). The keys that mean nothing in a mode are load errors
naming the key, so a suite never carries a setting that is silently ignored.
"""

from typing import Any, Literal

from pydantic import Field, ValidationInfo, field_validator

from mcptest.suite.models.base import Strict

VerdictKind = Literal["categorical", "numeric"]


class VerdictModeFields(Strict):
    """The verdict-mode keys shared by `llm-jury` (docs/jury.md, "Verdict modes")."""

    verdict_kind: VerdictKind | None = Field(default=None, description=(
        "`categorical`: each juror returns pass/fail, or one of `labels`; the panel takes the "
        "plurality. `numeric`: each juror returns a number in `score_range`; the panel takes "
        "the mean or median (`aggregate`) against `threshold`. Absent: the quorum rule."))
    labels: list[str] | None = Field(default=None, min_length=2, description=(
        "Categorical only: the answers a juror may give (the prompt lists them)."))
    passing_labels: list[str] | None = Field(default=None, min_length=1, description=(
        "Labels that pass (a subset of `labels`); without it the label is recorded and "
        "passed is unknown, reported as such and never as a pass."))
    score_range: tuple[float, float] | None = Field(default=None, description=(
        "Numeric only: the range of a juror's score (default [0, 1])."))

    @field_validator("labels")
    @classmethod
    def _labels(cls, v: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if v is None:
            return v
        if info.data.get("verdict_kind") != "categorical":
            raise ValueError("`labels` needs `verdict_kind: categorical` (a numeric jury "
                             "returns scores, not labels)")
        if any(not x.strip() for x in v):
            raise ValueError("a label must not be empty")
        dup = next((x for i, x in enumerate(v) if x in v[:i]), None)
        if dup is not None:
            raise ValueError(f"label {dup!r} is given twice")
        return v

    @field_validator("passing_labels")
    @classmethod
    def _passing(cls, v: list[str] | None, info: ValidationInfo) -> list[str] | None:
        if v is None:
            return v
        if info.data.get("verdict_kind") != "categorical":
            raise ValueError("`passing_labels` needs `verdict_kind: categorical` with `labels`")
        labels = info.data.get("labels")
        if not labels:
            raise ValueError("`passing_labels` needs `labels` (it names some of them)")
        stray = [x for x in v if x not in labels]
        if stray:
            raise ValueError(f"`passing_labels` must be a subset of `labels`: {stray[0]!r} is "
                             f"not one of {labels}")
        return v

    @field_validator("score_range")
    @classmethod
    def _range(cls, v: tuple[float, float] | None,
               info: ValidationInfo) -> tuple[float, float] | None:
        if v is None:
            return v
        if info.data.get("verdict_kind") != "numeric":
            raise ValueError("`score_range` needs `verdict_kind: numeric`")
        if not v[0] < v[1]:
            raise ValueError(f"`score_range` must be [low, high] with low < high, got {list(v)}")
        return v


def mode_key_error(kind: VerdictKind | None, key: str, value: Any) -> None:
    """Raise for a key (`threshold`, `quorum`, `aggregate`, `early_stop`) that has no meaning in
    the jury's verdict mode; called by the field validators of the spec that owns the key."""
    if kind == "categorical" and key in ("threshold", "quorum", "aggregate"):
        raise ValueError(f"`{key}` has no meaning with `verdict_kind: categorical` (the panel "
                         "takes the plurality of the jurors' answers); remove it")
    if kind == "numeric" and key == "quorum":
        raise ValueError("`quorum` has no meaning with `verdict_kind: numeric` (the panel's "
                         "mean or median is compared with `threshold`); remove it")
    if kind is not None and key == "early_stop" and value:
        raise ValueError("`early_stop` works with the quorum rule only (no `verdict_kind`)")
    if kind is None and key == "aggregate":
        raise ValueError("`aggregate` needs `verdict_kind: numeric`")


def numeric_range(score_range: tuple[float, float] | None) -> tuple[float, float]:
    return score_range or (0.0, 1.0)
