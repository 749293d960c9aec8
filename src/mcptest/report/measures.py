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
    """How many runs are drawn: at least 1, at most the scored runs."""
    value: Rate
    """The chance that at least one of k runs drawn from the scored ones passes (0..1)."""


class RepeatStats(Model):
    """A repeated test: its pass count and rate over the runs that produced a verdict, and the
    spread of its judged score over the runs that produced one (docs/baseline.md, "Repeats")."""

    runs: Count
    """Every counted repetition, scored or not (interrupted, skipped ones are left out)."""
    passed: Count
    """Scored runs that passed."""
    pass_rate: Rate | None
    """`passed / scored`; null when no run was scored (the row is not measured)."""
    min_pass_rate: Rate
    """The pass rate the row must reach (a test's `min_pass_rate:` or `--min-pass-rate`; the
    default 1.0 asks every scored run to pass)."""
    met: bool
    """The gate under repeats: `gated_value` ≥ `min_pass_rate`; false when nothing was
    scored."""
    scored: Count | None = None
    """Runs that produced a verdict (passed, failed or errored): a deferred judge, a skip and
    a not-yet-available matcher give none. null in reports written before it existed."""
    pass_rate_ci95: Interval | None = None
    """Wilson 95% interval of the pass rate over the scored runs."""
    decided_by: Literal["sequence", "curtailed", "limit", "budget", "stopped"] | None = None
    """An adaptive row (`repeat: adaptive`): what ended its runs: the confidence sequence
    cleared its threshold (`sequence`), more runs could no longer change the fixed count's
    answer (`curtailed`), its last allowed run (`limit`), its share of the budget (`budget`), or
    the run stopped (`stopped`); null on a fixed count."""
    opened_by_change: bool = False
    """An adaptive row repeated because its first run differed from the baseline's verdict."""
    min_pass_rate_on: Literal["estimate", "lower_bound", "corrected_lower_bound"] = "estimate"
    """What the gate was asked to hold (a test's `min_pass_rate_on:` or `--min-pass-rate-on`):
    `lower_bound` (the default since issue 35) and its older spelling `corrected_lower_bound`:
    the lower end of the row's interval; `estimate`: the pass rate itself. `estimate` in reports
    written before issue 26, whose gates held the pass rate."""
    gated_on: Literal["estimate", "lower_bound", "corrected_lower_bound"] | None = None
    """What the gate held against `min_pass_rate`: `corrected_lower_bound`, the lower end of
    the judge-corrected rate's 95% interval (`tests[].corrected`; the lowest of the row's
    judges), where a calibration record measured the judge; `lower_bound`, the lower end of
    `pass_rate_ci95`, where none did; `estimate`, `pass_rate` itself: asked for, or with a
    `min_pass_rate` of 1, which no interval can show (the count decides: every scored run must
    pass). null when nothing was scored, and in reports written before issue 35."""
    gated_value: Rate | None = None
    """The value `gated_on` names, held against `min_pass_rate` (`met` when it reaches it);
    null when nothing was scored, and in reports written before issue 35."""
    score_runs: Count = 0
    """Runs whose judged score the score figures below are over."""
    score_mean: float | None = None
    """Mean judged score (0..1) over the `score_runs`; null when none produced a score."""
    score_min: float | None = None
    """Lowest judged score over the `score_runs`; null when none produced a score."""
    score_max: float | None = None
    """Highest judged score over the `score_runs`; null when none produced a score."""
    score_stdev: float | None = None
    """Sample standard deviation; null with fewer than two scores."""
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
    """How far `run_agreement` can be trusted, with the same cut-offs as a jury's
    `confidence` (docs/jury.md)."""
    juries: Count
    """Jury assertions it rests on (each repetition's jury is its own); those with fewer
    than two rating jurors are left out."""
    unanimous: Count
    """How many of those juries had every juror give the same answer."""
    ci95: Interval | None = None
    """95% interval from 1,000 seeded resamples of the juries; null with a single jury."""
    jurors: float | None = None
    """The mean number of jurors of those juries; null in reports written before the field
    existed."""
    effective_jurors: float | None = None
    """The mean of those juries' `jury.effective_jurors.value`, over the juries that have one
    (docs/jury.md, "Effective jurors"); null when none has."""


class CassetteSummary(Model):
    """What the run's model cassettes did (`--models`; docs/cassettes.md)."""

    mode: Literal["record", "replay", "replay-or-record"]
    """The `--models` setting of the run."""
    replayed: Count = 0
    """Model answers served from cassettes: no request sent, nothing spent."""
    recorded: Count = 0
    """Model requests sent live and kept."""
    written: Count = 0
    """Cassette files written or removed."""
    diverged: Count = 0
    """Rows whose replay met a request their cassette did not hold (gap `replay`)."""


class AdaptiveSummary(Model):
    """`repeat: adaptive` over the run (docs/statistics.md, "Adaptive repeats"): how many runs
    the adaptive rows took against the fixed count they stand in for."""

    rows: Count
    """Adaptive rows."""
    most: Count
    """The most runs a row could take (MAX)."""
    one_run: Count
    """Rows their first run settled: passed as on the baseline, clear of the threshold, or a
    failure that already decides (any failure misses a min_pass_rate of 1)."""
    decided: dict[str, Count] = Field(default_factory=dict)
    """Rows that repeated, by what ended them (see `tests[].repeat.decided_by`)."""
    runs: Count
    """Runs the adaptive rows took in all (a fixed count would take rows × most)."""
    mean_runs_repeated: float | None = None
    """Mean runs of the rows that repeated."""
    flaky_not_changed: list[str] = Field(default_factory=list)
    """Rows repeated because their first run differed from the baseline whose runs then
    disagreed: flaky rather than changed."""
