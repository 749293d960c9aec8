"""Rubrics (free-form, ref, preset, criteria or a decision tree) and how evals are judged
(docs/evals.md). The criteria and tree models are `rubric_criteria.py`'s, built when a suite
first writes such a rubric."""

from typing import TYPE_CHECKING, Any, Literal, Self, TypeAlias, get_args

from pydantic import (
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from mcptest.suite.models.base import Strict
from mcptest.suite.models.lazy_union import LazyUnion
from mcptest.suite.models.verdict_kind import VerdictModeFields, mode_key_error


class RubricRef(Strict):
    ref: str = Field(min_length=1)
    threshold: float | None = Field(default=None, ge=0, le=1)
    strict: bool | None = None


PresetName = Literal["helpfulness", "groundedness", "safety", "format-adherence", "conciseness",
                     "tool-description-quality"]
PRESETS: tuple[str, ...] = get_args(PresetName)


def _rubric_kind(value: Any) -> str | None:
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        if "ref" in value:
            return "ref"
        if "preset" in value:
            return "preset"
        return "body"
    return None


_CRITERIA = "mcptest.suite.models.rubric_criteria"


class _RubricUnion(LazyUnion):
    """pydantic's `Rubric`: a string, `{ref}`, `{preset}` or a body; the criteria and tree
    models are built when a suite first writes one (a free-form rubric builds none)."""

    members = (("text", "builtins:str"), ("ref", f"{__name__}:RubricRef"),
               ("preset", f"{_CRITERIA}:RubricPreset"), ("body", f"{_CRITERIA}:RubricBody"))
    error_type = "rubric_kind"
    error_message = "a rubric is a string, {ref}, {preset} or {criteria|tree}"
    tag = staticmethod(_rubric_kind)


def rubric_form(rubric: Any) -> str | None:
    """`text`, `ref`, `preset` or `body`: which form a rubric (or its mapping) has, by its
    class's name, so asking imports no rubric model."""
    return _RubricUnion.tag_of(rubric)


if TYPE_CHECKING:
    from mcptest.suite.models.rubric_criteria import RubricBody, RubricPreset

    Rubric: TypeAlias = "str | RubricRef | RubricPreset | RubricBody"
else:
    Rubric = _RubricUnion


class JuryConfig(Strict):
    size: int = Field(ge=1, le=20)
    consensus: float = Field(default=0.5, ge=0, le=1)
    temperature: float | None = Field(
        default=None, ge=0, le=2,
        description="Sampling temperature of the jury's gradings (default: the suite's "
                    "judge.temperature when above 0, else 0.7; docs/evals.md).")

    @model_validator(mode="after")
    def _samples_differ(self) -> Self:
        if self.size > 1 and self.temperature == 0:
            raise ValueError(f"a jury of {self.size} gradings at temperature 0 pays "
                             f"{self.size} times for one answer: give `temperature` above 0 "
                             "(or leave it out for 0.7), or use `size: 1`")
        return self


class EvalJudge(VerdictModeFields):
    """How an eval is judged: one model, repeated samples of one model, or a panel; with a
    verdict mode (docs/evals.md, "Verdict modes")."""

    model: str | None = None
    base_url: str | None = None
    jury: JuryConfig | None = None
    panel: list[str] | None = Field(default=None, min_length=1)
    aggregate: Literal["mean", "median", "majority"] = "mean"
    tie_break: Literal["fail", "pass"] = "fail"
    strict_panel: bool = Field(
        default=False,
        description="Refuse (load error) a judge of the same vendor family as the model that "
                    "writes a live eval's answer; without it that is a load warning.")
    early_stop: bool = Field(default=False, description=(
        "A panel or jury: ask its gradings in waves and stop once no grading not yet asked "
        "could change the verdict; the verdict is the full panel's (except that gradings never "
        "asked cannot be refused by the budget), the score and analytics rest on the gradings "
        "asked (docs/evals.md, \"Early stop\")."))

    @field_validator("early_stop")
    @classmethod
    def _early_stop_fits(cls, v: bool, info: ValidationInfo) -> bool:
        mode_key_error(info.data.get("verdict_kind"), "early_stop", v)
        if not v or "panel" not in info.data or "jury" not in info.data:
            return v  # a `panel` or `jury` that is itself wrong has its own error
        panel, jury = info.data["panel"], info.data["jury"]
        if (len(panel) if panel is not None else jury.size if jury is not None else 1) < 2:
            raise ValueError("`early_stop` needs a `panel` or a `jury` of two or more "
                             "gradings: a single grading has nothing to stop")
        return v

    @field_validator("score_range")
    @classmethod
    def _no_range(cls, v: tuple[float, float] | None) -> tuple[float, float] | None:
        if v is not None:
            raise ValueError("`score_range` is an `llm-jury` key: an eval's scores are 0..1 "
                             "against its `threshold`")
        return v

    @field_validator("aggregate")
    @classmethod
    def _aggregate_fits(cls, v: str, info: ValidationInfo) -> str:
        kind = info.data.get("verdict_kind")
        if kind == "numeric" and v == "majority":
            raise ValueError("`aggregate: majority` counts passes: with `verdict_kind: numeric` "
                             "use mean or median")
        if kind == "categorical" and v != "majority":
            raise ValueError(f"`aggregate: {v}` needs scores: a categorical panel takes the "
                             "plurality of its answers (leave `aggregate` out)")
        return v

    @field_validator("tie_break")
    @classmethod
    def _tie_break_fits(cls, v: str, info: ValidationInfo) -> str:
        if info.data.get("labels"):
            raise ValueError("`tie_break` has no meaning with `labels`: a tie between labels is "
                             "inconclusive (docs/evals.md); leave it out")
        if info.data.get("verdict_kind") == "numeric":
            raise ValueError("`tie_break` has no meaning with `verdict_kind: numeric`: the "
                             "panel's mean or median is compared with `threshold`")
        return v

    @model_validator(mode="after")
    def _panel_or_jury(self) -> Self:
        if self.panel is not None and (self.jury is not None or self.model is not None):
            raise ValueError("`panel` replaces `model` and `jury`; give one or the other")
        return self


class Matrix(Strict):
    models: list[str] = Field(default_factory=list)
    prompts: list[str] = Field(default_factory=list)

