"""Judged rates corrected for the judge's own errors, as the report carries them
(docs/statistics.md): per judged row and per judge (its calibration record) over the run."""

from __future__ import annotations

from typing import Literal

from mcptest.report.base import Count, Interval, Model, Rate


class JudgeErrorCounts(Model):
    """The judge against its record's human labels, as counts (Rogan–Gladen needs them)."""

    human_fail: Count
    """Labels the humans failed (m0)."""
    judge_fail: Count
    """Of those, the ones the judge failed too: specificity q0 = judge_fail / human_fail."""
    human_pass: Count
    """Labels the humans passed (m1)."""
    judge_pass: Count
    """Of those, the ones the judge passed too: sensitivity q1 = judge_pass / human_pass."""


class CorrectedRate(Model):
    """A judge's pass rate beside its estimate of the true one."""

    record: str
    """The calibration record whose labels measured the judge (as the suite wrote it)."""
    method: Literal["rogan-gladen"] = "rogan-gladen"
    """`rogan-gladen`: θ = (p + q0 − 1)/(q0 + q1 − 1) with the interval of Lee et al. (arXiv
    2511.21140), carrying both the run's and the labels' uncertainty."""
    judged_passed: float
    """Judged passes: a count of verdicts for a row, the sum of the tests' pass rates for a
    judge over the run (each test counts once, however often it was repeated)."""
    judged: Count
    """Verdicts for a row (its scored repetitions); tests for a judge over the run."""
    raw_rate: Rate
    """What the judge says: judged_passed / judged."""
    rate: Rate
    """The corrected estimate of the true pass rate."""
    ci95: Interval
    """Its 95% interval."""
    specificity: Rate
    """q0: of the labels people failed, the share the judge failed too."""
    sensitivity: Rate
    """q1: of the labels people passed, the share the judge passed too."""
    errors: JudgeErrorCounts
    """The label counts q0 and q1 come from."""


class JudgeCorrection(Model):
    """One judge over the run: its raw rate and, when its record allows, the corrected one."""

    record: str | None
    """Its calibration record; null for judges without one (`calibration:` not set)."""
    tests: Count
    """Tests with a verdict from this judge (a repeated test once)."""
    judged_passed: float
    """Sum over those tests of their judged pass rate."""
    raw_rate: Rate | None
    """judged_passed / tests; null when no test got a verdict."""
    corrected: CorrectedRate | None = None
    """The corrected rate; null when it cannot be computed (see `reason`)."""
    reason: str | None = None
    """Why there is no corrected rate: no calibration record, an unreadable or stale one, a
    record without both passing and failing labels, or a judge no better than chance."""


class CorrectedDelta(Model):
    """A judge's pass rate on the baseline and now, and the change corrected for its errors:
    the raw change divided by q0 + q1 − 1, with an interval over both runs and the labels."""

    record: str
    """The calibration record (the new run's: its labels measured the judge as it is now)."""
    old_raw_rate: Rate
    """The judge's pass rate on the baseline (a test once)."""
    new_raw_rate: Rate
    """Its pass rate now."""
    raw_delta: float
    """new_raw_rate − old_raw_rate."""
    delta: float
    """The corrected change of the true pass rate."""
    ci95: Interval
    """Its 95% interval."""
