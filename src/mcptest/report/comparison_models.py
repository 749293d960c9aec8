"""A run compared with a baseline run, row by row and in total (docs/baseline.md). Part of the
canonical report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Count, Model, Rate, Status, Usd
from mcptest.report.corrected_models import CorrectedDelta
from mcptest.report.selection_models import SelectionChange

Change = Literal[
    "regressed", "fixed", "still_failing", "newly_flaky", "new", "removed", "changed",
    "unchanged", "insufficient_data", "unconfirmed", "not_measured",
]
"""How a row compares with the baseline's row of the same id (docs/baseline.md)."""


class RowComparison(Model):
    """One row of a comparison with a baseline run (docs/baseline.md)."""

    id: str
    """The row's stable id (the same on both sides)."""
    name: str
    """The row's name (the new run's; the baseline's when it is `removed`)."""
    change: Change
    """How the row moved: `regressed`, `fixed`, `still_failing`, `newly_flaky`,
    `insufficient_data`, `unconfirmed`, `not_measured`, `new`, `removed`, `changed` (not
    comparable), `unchanged` (docs/baseline.md)."""
    old_status: Status | None = None
    """The row's status on the baseline; null when it is `new`."""
    new_status: Status | None = None
    """The row's status now; null when it is `removed`."""
    old_pass_rate: Rate | None = None
    """Baseline: passes over scored runs (0..1); null when nothing was scored or the row is
    on one side only."""
    new_pass_rate: Rate | None = None
    """Now: passes over scored runs (0..1); null when nothing was scored or the row is on
    one side only."""
    p_value: Rate | None = None
    """One-sided Fisher exact test on pass counts, when either side was repeated."""
    p_adjusted: Rate | None = None
    """`p_value` adjusted by Benjamini–Hochberg over every tested row (docs/baseline.md): the
    row is `regressed` (or `fixed`) when it is at most the comparison's q (`alpha`)."""
    old_scored: Count | None = None
    """Baseline runs that produced a verdict (its pass rate is over them)."""
    new_scored: Count | None = None
    """Runs of this run that produced a verdict (its pass rate is over them)."""
    repeats_needed: Count | None = None
    """`unconfirmed` and `insufficient_data`: repetitions on each side at which a drop the size
    of the one observed would be significant at q on its own; null past 100."""
    score_delta: float | None = None
    """New judged score minus the baseline's (judged rows: the eval's score, else the mean
    of its judged assertions' scores); null when either side has none."""
    old_cost_usd: Usd | None = None
    """What the row cost on the baseline, in US dollars; null when that cost is unknown or
    the row is `new`."""
    new_cost_usd: Usd | None = None
    """What the row cost now, in US dollars; null when that cost is unknown (never shown as
    0) or the row is `removed`."""
    cost_delta_usd: float | None = None
    """`new_cost_usd − old_cost_usd`; null when either is unknown."""
    duration_delta_ms: float | None = None
    """The row's wall time now minus on the baseline, in milliseconds."""
    gated: bool = False
    """The score dropped by more than `max_score_drop`."""


class Comparison(Model):
    """A run compared with a baseline run: per-row changes and the totals."""

    baseline: str
    """Where the baseline came from (a path, or `artifact <name> @ <sha>`)."""
    baseline_started_at: str | None = None
    """When the baseline run started (its `started_at`, ISO 8601 UTC)."""
    note: str | None = None
    """One line for the reader (how stale the baseline is, why there is none)."""
    alpha: Rate
    """q, the false discovery rate across the tested rows (Benjamini–Hochberg); with one
    tested row it is the plain significance level of Fisher's test."""
    tested: Count = 0
    """Rows whose pass counts were tested (either side repeated, both sides scored)."""
    fail_on: Literal["regressed", "any-failure"]
    """`any-failure`: the exit code is the run's own; `regressed`: failing tests fail the
    run only when some row regressed (docs/baseline.md, "Gates")."""
    fail_on_not_measured: bool = False
    """`--fail-on not-measured`: a row with no scored run fails the gate."""
    max_score_drop: Rate | None = None
    """`--max-score-drop`: the largest judged score drop a row may have (a test's or suite's
    own wins, see `tests[].max_score_drop`); null: none."""
    counts: dict[str, Count] = Field(default_factory=dict)
    """Rows per `change` value, unchanged rows included."""
    rows: list[RowComparison] = Field(default_factory=list)
    """Every row that is not `unchanged` (or is `gated`), baseline rows that are gone included."""
    old_cost_usd: Usd | None = None
    """The baseline run's total cost in US dollars; null when some of it is unknown."""
    new_cost_usd: Usd | None = None
    """This run's total cost in US dollars; null when some of it is unknown."""
    cost_delta_usd: float | None = None
    """`new_cost_usd − old_cost_usd`; null when either is unknown."""
    duration_delta_ms: float | None = None
    """This run's wall time minus the baseline's, in milliseconds."""
    selection: list[SelectionChange] = Field(default_factory=list)
    """Every selection row of both runs, old against new: what the comparison leads with
    (docs/selection.md)."""
    corrected: list[CorrectedDelta] = Field(default_factory=list)
    """Per judge with a usable calibration record in this run and a verdict on both sides:
    the change of its pass rate, raw and corrected for its errors (docs/statistics.md)."""
