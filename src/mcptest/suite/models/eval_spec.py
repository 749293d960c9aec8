"""An eval: a prompt, a response (fixed, or an agent's live answer) and the rubric a judge
grades it by (docs/evals.md). Its own module, so a suite of evals builds no tool test's or
matcher's model."""

from typing import Any

from pydantic import (
    Field,
    ValidationInfo,
    field_validator,
)

from mcptest.suite.models.base import CasePolicy, reference_field
from mcptest.suite.models.calibration import CalibrationGate
from mcptest.suite.models.rubrics import EvalJudge, Matrix, Rubric
from mcptest.suite.models.table import Cases, cases_field


class EvalSpec(CasePolicy):
    name: str = Field(min_length=1)
    server: str | None = None
    prompt: str = Field(min_length=1)
    response: str | None = Field(
        default=None, description="Fixed candidate; omit it to run the prompt live as an agent."
    )
    model: str | None = Field(default=None, description="Agent model for a live eval.")
    rubric: Rubric
    threshold: float | None = Field(default=None, ge=0, le=1)
    judge: EvalJudge | None = None
    matrix: Matrix | None = None
    max_turns: int = Field(default=8, ge=1, le=100)
    tags: list[str] = Field(default_factory=list)
    reference: Any = reference_field()
    cases: Cases = cases_field()
    calibration: CalibrationGate | None = None

    @field_validator("judge")
    @classmethod
    def _labels_need_free_form(cls, v: EvalJudge | None,
                               info: ValidationInfo) -> EvalJudge | None:
        """Labels answer one question: a criteria or tree rubric asks several (docs/evals.md)."""
        if v is not None and v.labels and not isinstance(info.data.get("rubric"), str):
            raise ValueError("`labels` need a free-form rubric (a string): a criteria or tree "
                             "rubric is scored, not labeled")
        if v is not None and v.labels and info.data.get("threshold") is not None:
            raise ValueError("`threshold` has no meaning with `labels`: the plurality label "
                             "decides, by `passing_labels` (docs/evals.md); remove `threshold`")
        return v


    @field_validator("matrix")
    @classmethod
    def _early_stop_needs_its_panel(cls, v: Matrix | None, info: ValidationInfo) -> Matrix | None:
        """A models axis over a fixed response replaces the panel with the cell's one judge
        (docs/evals.md, "Matrix"): `early_stop` would silently do nothing."""
        judge = info.data.get("judge")
        if (v is not None and v.models and judge is not None and judge.early_stop
                and judge.panel is not None and info.data.get("response") is not None):
            raise ValueError("`models` replaces the panel with one judge per cell over a fixed "
                             "response, so `judge.early_stop` has nothing to stop: remove one")
        return v
