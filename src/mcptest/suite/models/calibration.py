"""`calibration:` — gate a judge on its agreement with human labels (docs/calibration.md)."""

from __future__ import annotations

from pydantic import Field

from mcptest.suite.models.base import Strict


class CalibrationGate(Strict):
    """Where the judge's calibration record is, and the floor it must clear to gate a run."""

    file: str = Field(min_length=1, description="The record `mcptest calibrate` wrote, "
                      "relative to the suite file.")
    min_agreement: float = Field(default=0.8, ge=-1, le=1,
                                 description="Floor for Cohen's kappa of the verdict.")
    min_labels: int = Field(default=50, ge=1, description="Labels the record must hold.")
    max_false_fail: float = Field(default=0.1, ge=0, le=1,
                                  description="Above this false-fail rate a failure is "
                                              "classified judge-calibration.")
