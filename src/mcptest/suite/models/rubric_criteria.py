"""Structured rubrics: weighted criteria or a decision tree, and the criteria a preset adds
(docs/evals.md). Built when a suite first writes one (`rubrics.py`'s `Rubric` names them)."""

from typing import Literal, Self

from pydantic import Field, field_validator, model_validator

from mcptest.suite.models.base import Strict, check_regex
from mcptest.suite.models.rubrics import PresetName


class WhenContains(Strict):
    contains: str


class WhenRegex(Strict):
    regex: str

    _compiles = field_validator("regex")(check_regex)


class CalibrationExample(Strict):
    response: str
    score: float = Field(ge=0, le=1)


class Criterion(Strict):
    name: str = Field(min_length=1)
    description: str = Field(min_length=1)
    weight: float = Field(default=1.0, gt=0)
    required: bool = False
    guard: bool = False
    threshold: float | None = Field(default=None, ge=0, le=1)
    when: WhenContains | WhenRegex | None = None
    examples: list[CalibrationExample] = Field(default_factory=list)


class TreeLeaf(Strict):
    score: float = Field(ge=0, le=1)
    reason: str | None = None


class TreeNode(Strict):
    ask: str = Field(min_length=1)
    yes: "TreeNode | TreeLeaf"
    no: "TreeNode | TreeLeaf"


class LikertRange(Strict):
    min: int = 1
    max: int = 5

    @model_validator(mode="after")
    def _ordered(self) -> Self:
        if self.max <= self.min:
            raise ValueError("likert max must be greater than min")
        return self


class LikertScale(Strict):
    likert: LikertRange


Aggregation = Literal["mean", "min", "max", "median", "geometric"]


class RubricBody(Strict):
    """A structured rubric: weighted criteria or a decision tree (never both)."""

    threshold: float | None = Field(default=None, ge=0, le=1)
    strict: bool = False
    aggregation: Aggregation = "mean"
    scale: Literal["percent"] | LikertScale | None = None
    require_evidence: bool = False
    criteria: list[Criterion] | None = Field(default=None, min_length=1)
    tree: TreeNode | None = None

    @model_validator(mode="after")
    def _one_form(self) -> Self:
        if self.criteria is not None and self.tree is not None:
            raise ValueError("a rubric has either `criteria` or `tree`, never both")
        if self.criteria is None and self.tree is None:
            raise ValueError("a structured rubric needs `criteria` or `tree`")
        if self.tree is not None:
            given = [k for k in ("require_evidence", "aggregation")
                     if k in self.model_fields_set]
            if given:
                raise ValueError(
                    f"`{'` and `'.join(given)}` apply to `criteria`; a `tree` rubric scores "
                    "the leaf it reaches (no criteria to aggregate or quote evidence for)")
        return self


class RubricPreset(Strict):
    preset: PresetName
    threshold: float | None = Field(default=None, ge=0, le=1)
    strict: bool = False
    criteria: list[Criterion] = Field(default_factory=list)
