"""`calibration:` — gate a judge on its agreement with human labels (docs/calibration.md)."""

from typing import Literal

from pydantic import Field

from mcptest.suite.models.base import Strict


class CalibrationGate(Strict):
    """Where the judge's calibration record is, and the floor it must clear to gate a run."""

    file: str = Field(min_length=1, description="The record `mcptest calibrate` wrote, "
                      "relative to the suite file.")
    min_agreement: float = Field(default=0.8, ge=-1, le=1,
                                 description="Floor for Cohen's kappa of the verdict.")
    min_agreement_on: Literal["estimate", "lower_bound"] = Field(
        default="estimate",
        description="Hold min_agreement against kappa itself (`estimate`, the default) or "
                    "against the lower end of its 95% bootstrap interval (`lower_bound`): then "
                    "the labels must show the floor, not just reach it.")
    min_labels: int = Field(default=50, ge=1, description="Labels the record must hold.")
    max_false_fail: float = Field(default=0.1, ge=0, le=1,
                                  description="Above this false-fail rate a failure is "
                                              "classified judge-calibration.")
