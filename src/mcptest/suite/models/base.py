"""The base of every input model, and validators and fields shared across them."""

import re
from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
)


class Strict(BaseModel):
    """Base of every input model: unknown keys are an error, and so are `.inf` and `.nan`
    (an infinite weight, price or bound would switch off what it is meant to bound)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, allow_inf_nan=False,
                              defer_build=True)


class CasePolicy(Strict):
    """`repeat:`, `min_pass_rate:` and `max_score_drop:`, shared by every kind of test
    (docs/baseline.md)."""

    repeat: Annotated[int, Field(ge=1, le=100)] | Literal["adaptive"] | None = Field(
        default=None,
        description="Run this test N times (overrides --repeat); each a fresh call and judging. "
                    "`adaptive`: run it once, and again only while its answer is open (it "
                    "failed, changed against the baseline, or sits near its threshold), until "
                    "a confidence sequence decides or the fixed count could no longer change "
                    "(at most 10 runs, or MAX of --repeat adaptive:MAX; docs/statistics.md).")
    min_pass_rate: float | None = Field(
        default=None, ge=0, le=1,
        description="Share of repetitions that must pass (default 1.0, or --min-pass-rate).")
    min_pass_rate_on: Literal["estimate", "lower_bound", "corrected_lower_bound"] | None = Field(
        default=None,
        description="Hold min_pass_rate against the lower end of the row's 95% interval "
                    "(`lower_bound`, the default, or --min-pass-rate-on): the judge-corrected "
                    "rate's where a calibration record measured the judge, else Wilson's over "
                    "the scored runs, so a test must show its rate, not just reach it once "
                    "(`corrected_lower_bound` is an older spelling of the same); or against "
                    "the pass rate itself (`estimate`). A min_pass_rate of 1 is decided by the "
                    "count: every scored run must pass (docs/baseline.md).")
    max_score_drop: float | None = Field(
        default=None, ge=0, le=1,
        description="Against a baseline: fail when the judged score fell by more than this.")
    pass_at_k: list[Annotated[int, Field(strict=True, ge=1, le=100)]] | None = Field(
        default=None, min_length=1,
        description="With repeat: report pass@k for these k (agent tests default to 1 and the "
                    "repeat count); each k at most the repeat count. With `repeat: adaptive` "
                    "the count is not known before the run: a row reports each k up to the "
                    "runs it took.")

    @field_validator("pass_at_k")
    @classmethod
    def _k_within_repeat(cls, ks: list[int] | None, info: ValidationInfo) -> list[int] | None:
        """pass@k needs at least k runs (docs/agents.md, "Repeats and pass@k")."""
        repeat = info.data.get("repeat")
        if ks is not None and isinstance(repeat, int) and max(ks) > repeat:
            raise ValueError(f"pass@{max(ks)} needs at least {max(ks)} runs; repeat is {repeat}")
        return sorted(set(ks)) if ks is not None else None


def check_regex(cls: Any, value: str | None) -> str | None:
    """Field validator: a pattern that does not compile is a load error (None: not given)."""
    if value is None:
        return None
    try:
        re.compile(value)
    except re.error as e:
        raise ValueError(f"regex does not compile: {e}") from None
    return value


REFERENCE_DESCRIPTION = (
    "The expected answer: any value inline, or `{file: path}` relative to the suite file "
    "(`.json` is parsed as JSON, anything else is text). Given to LLM judges as a delimited "
    "reference, to custom judges, and to `same-shape` matchers.")


def reference_field() -> Any:
    return Field(default=None, description=REFERENCE_DESCRIPTION)
