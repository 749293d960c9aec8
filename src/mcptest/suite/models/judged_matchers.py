"""The models of the judged matcher kinds: `llm-judge`, `llm-jury`, `custom-judge`,
`eval-rubric` (docs/suites.md, docs/cascade.md). Their own module, so a suite of deterministic
checks builds none of them; which kinds exist is the table of `matcher_kinds.py`."""

from __future__ import annotations

import shlex
from typing import Annotated, Any, Literal

from pydantic import (
    AliasChoices,
    ConfigDict,
    Discriminator,
    Field,
    Tag,
    ValidationInfo,
    field_validator,
    model_validator,
)

from mcptest.suite.durations import Duration
from mcptest.suite.models.base import Strict
from mcptest.suite.models.calibration import CalibrationGate
from mcptest.suite.models.escalate import check_tiers, inherit_question, tier_kind
from mcptest.suite.models.kind_aliases import kind_alias_schema
from mcptest.suite.models.rubrics import Rubric
from mcptest.suite.models.verdict_kind import VerdictModeFields, mode_key_error, numeric_range


class Juror(Strict):
    model: str = Field(min_length=1)
    base_url: str | None = None
    weight: float = Field(default=1.0, gt=0)


class LlmJudgeSpec(Strict):
    rubric: str = Field(min_length=1)
    threshold: float = Field(default=0.7, ge=0, le=1)
    model: str | None = None
    base_url: str | None = None
    calibration: CalibrationGate | None = None
    escalate: list[Tier] | None = Field(default=None, min_length=1, description=(
        "Tiers to escalate to, cheapest first, each an `llm-judge` or an `llm-jury` grading "
        "this rubric: a tier's verdict stands when its confidence reaches the threshold the "
        "`calibration:` record holds for it, else the next tier runs; the last always decides "
        "(docs/cascade.md, \"Trust or escalate\")."))

    _inherit = field_validator("escalate", mode="before")(inherit_question)
    _tiers = field_validator("escalate")(check_tiers)


class LlmJurySpec(VerdictModeFields):
    rubric: str = Field(min_length=1)
    jurors: list[Juror] = Field(min_length=1)
    threshold: float = Field(default=0.7, description=(
        "Per-juror pass line in [0, 1]; with `verdict_kind: numeric` the panel's pass line, "
        "within `score_range`."))
    quorum: float = Field(default=0.5, ge=0, le=1, description="Fraction of decisive jurors.")
    repetitions: int = Field(default=1, ge=1, le=20)
    temperature: float | None = Field(
        default=None, ge=0, le=2,
        description="Sampling temperature of the jurors' gradings, sent whenever given; "
                    "without it, repeated gradings (repetitions > 1) use the suite's "
                    "judge.temperature when above 0, else 0.7 (docs/jury.md).")
    replacements: list[Juror] = Field(default_factory=list)
    min_jurors: int | None = Field(default=None, ge=1)
    strict_panel: bool = False
    early_stop: bool = Field(default=False, description=(
        "Ask jurors in waves and stop once the quorum is settled either way; the verdict is "
        "the full jury's (except that jurors never asked cannot be refused by the budget), the "
        "score and analytics rest on the jurors asked."))
    calibration: CalibrationGate | None = None
    aggregate: Literal["mean", "median"] | None = Field(default=None, description=(
        "`verdict_kind: numeric`: the panel's mean (weighted, the default) or median."))

    @field_validator("threshold", "quorum", "aggregate", "early_stop")
    @classmethod
    def _fits_mode(cls, v: Any, info: ValidationInfo) -> Any:
        kind = info.data.get("verdict_kind")
        mode_key_error(kind, str(info.field_name), v)
        if info.field_name == "threshold":
            low, high = numeric_range(info.data.get("score_range")) if kind else (0.0, 1.0)
            if not low <= v <= high:
                raise ValueError(f"`threshold` must lie in [{low:g}, {high:g}]")
        return v

    @field_validator("early_stop")
    @classmethod
    def _early_stop_needs_jurors(cls, v: bool, info: ValidationInfo) -> bool:
        jurors = info.data.get("jurors")  # absent: `jurors` has its own error
        if v and jurors is not None and len(jurors) < 2:
            raise ValueError("`early_stop` needs two or more jurors: a single juror has "
                             "nothing to stop")
        return v

    @field_validator("temperature")
    @classmethod
    def _repetitions_sample(cls, v: float | None, info: ValidationInfo) -> float | None:
        """On `temperature` (declared after `repetitions`), so the error points at that key."""
        reps = info.data.get("repetitions", 1)
        if reps > 1 and v == 0:
            raise ValueError(f"{reps} repetitions at temperature 0 pay {reps} times for one "
                             "answer: give `temperature` above 0 (or leave it out for 0.7), or "
                             "use `repetitions: 1`")
        return v

    @model_validator(mode="after")
    def _threshold_in_range(self) -> LlmJurySpec:
        low, high = numeric_range(self.score_range)
        if self.verdict_kind == "numeric" and not low <= self.threshold <= high:
            raise ValueError(f"give `threshold` within `score_range` [{low:g}, {high:g}]")
        return self


class LlmJudgeMatcher(Strict):
    llm_judge: LlmJudgeSpec = Field(alias="llm-judge")


class LlmJuryMatcher(Strict):
    llm_jury: LlmJurySpec = Field(alias="llm-jury")


Tier = Annotated[
    Annotated[LlmJudgeMatcher, Tag("llm-judge")] | Annotated[LlmJuryMatcher, Tag("llm-jury")],
    Discriminator(tier_kind, custom_error_type="tier_kind",
                  custom_error_message="a tier is `{llm-judge: {model: …}}` or "
                                       "`{llm-jury: {jurors: […]}}`"),
]


class CustomJudgeSpec(Strict):
    """A judge of your own: a Python callable or an external command speaking JSON."""

    python: str | None = Field(
        default=None, pattern=r"^[A-Za-z_][\w.]*:[A-Za-z_]\w*$",
        description="`module:function`; the module is imported (also from the suite's folder).")
    command: list[str] | None = Field(
        default=None, min_length=1,
        description="argv; reads one JSON document on stdin, prints one verdict JSON.")
    threshold: float = Field(default=0.7, ge=0, le=1,
                             description="Pass line when the verdict gives only a score.")
    timeout: Duration = Field(default=60.0, description="Seconds the judge may take.")
    rubric: str | None = Field(default=None, description="Passed to the judge in its context.")
    max_cost_usd: float | None = Field(
        default=None, ge=0, le=1000, allow_inf_nan=False,
        description="The most one verdict can cost (USD), reserved under `--max-cost` before the "
                    "judge runs; a judge that reports more is an error. Unset: under a cap the "
                    "judge runs one call at a time, reserved at the most it has reported "
                    "(docs/evals.md).")

    @field_validator("command", mode="before")
    @classmethod
    def _split_string(cls, v: Any) -> Any:
        return shlex.split(v) if isinstance(v, str) else v

    @model_validator(mode="after")
    def _one_kind(self) -> CustomJudgeSpec:
        if (self.python is None) == (self.command is None):
            raise ValueError("a custom judge needs exactly one of `python` or `command`")
        return self


class CustomJudgeMatcher(Strict):
    custom_judge: CustomJudgeSpec = Field(alias="custom-judge")


class EvalRubricMatcher(Strict):
    """Grades an agent transcript with the rubric engine of `evals:` (agents only)."""

    model_config = ConfigDict(json_schema_extra=kind_alias_schema("eval-rubric", "eval.rubric"))

    eval_rubric: Rubric = Field(alias="eval-rubric",
                                validation_alias=AliasChoices("eval-rubric", "eval.rubric"))
