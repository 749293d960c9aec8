"""What a repeated test and a run's juries measured: pass counts over the scored runs with
their Wilson intervals, pass@k, and the run-level agreement's band and counts (docs/baseline.md,
"Repeats"; docs/jury.md, "Run-level agreement"). Part of the canonical report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from mcptest.report.base import Confidence, Count, Interval, Model, Rate


class PassAtK(Model):
    """The unbiased pass@k estimate of a repeated test: 1 - C(n-c, k) / C(n, k), the chance that
    at least one of k runs drawn from its n passes (docs/agents.md, "Repeats and pass@k")."""

    k: int = Field(ge=1)
    value: Rate


class RepeatStats(Model):
    """A repeated test: its pass count and rate over the runs that produced a verdict, and the
    spread of its judged score over the runs that produced one (docs/baseline.md, "Repeats")."""

    runs: Count
    """Every counted repetition, scored or not (interrupted, skipped ones are left out)."""
    passed: Count
    """Scored runs that passed."""
    pass_rate: Rate | None
    """`passed / scored`; None when no run was scored (the row is not measured)."""
    min_pass_rate: Rate
    met: bool
    """The gate under repeats: `pass_rate` (or its interval's lower bound, with
    `min_pass_rate_on: lower_bound`) ≥ `min_pass_rate`; False when nothing was scored."""
    scored: Count | None = None
    """Runs that produced a verdict (passed, failed or errored): a deferred judge, a skip and
    a not-yet-available matcher give none. None in reports written before it existed."""
    pass_rate_ci95: Interval | None = None
    """Wilson 95% interval of the pass rate over the scored runs."""
    min_pass_rate_on: Literal["estimate", "lower_bound"] = "estimate"
    score_runs: Count = 0
    """Runs whose judged score the score figures below are over."""
    score_mean: float | None = None
    score_min: float | None = None
    score_max: float | None = None
    score_stdev: float | None = None
    """Sample standard deviation; None with fewer than two scores."""
    pass_at_k: list[PassAtK] | None = None
    """pass@k over the scored runs for the k the test asks for (agent tests: 1 and the run
    count), each k ≤ the scored runs."""

    @property
    def measured(self) -> int:
        """The runs the pass rate is over (every counted run in an older report)."""
        return self.runs if self.scored is None else self.scored

    @model_validator(mode="after")
    def _passed_within_runs(self) -> RepeatStats:
        if self.passed > self.runs:
            raise ValueError("more repetitions passed than ran (passed > runs)")
        if self.scored is not None and not self.passed <= self.scored <= self.runs:
            raise ValueError("need passed <= scored <= runs")
        return self


class RunAgreement(Model):
    """How to read `run_agreement`: its band, the juries it rests on, how many of them were
    unanimous, and a 95% interval from resampling the juries (docs/jury.md)."""

    band: Confidence
    juries: Count
    unanimous: Count
    ci95: Interval | None = None
