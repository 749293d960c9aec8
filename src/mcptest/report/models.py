"""The canonical report: one versioned document that every reporter renders.

Bump `REPORT_VERSION` whenever a field changes meaning or disappears; adding an optional field
does not need a bump. `schema/report-v1.json` is generated from these models.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from mcptest.report.base import Confidence as Confidence
from mcptest.report.base import Count, Millis, Usd
from mcptest.report.base import Interval as Interval
from mcptest.report.base import Location as Location
from mcptest.report.base import Model as Model
from mcptest.report.base import Status as Status
from mcptest.report.comparison_models import Change as Change
from mcptest.report.comparison_models import Comparison as Comparison
from mcptest.report.comparison_models import RowComparison as RowComparison
from mcptest.report.corrected_models import CorrectedDelta as CorrectedDelta
from mcptest.report.corrected_models import CorrectedRate as CorrectedRate
from mcptest.report.corrected_models import JudgeCorrection as JudgeCorrection
from mcptest.report.corrected_models import JudgeErrorCounts as JudgeErrorCounts
from mcptest.report.judge_models import CalibrationNote as CalibrationNote
from mcptest.report.judge_models import CalibrationState as CalibrationState
from mcptest.report.judge_models import CascadeSummary as CascadeSummary
from mcptest.report.judge_models import CriterionResult as CriterionResult
from mcptest.report.judge_models import Escalation as Escalation
from mcptest.report.judge_models import JudgeDetail as JudgeDetail
from mcptest.report.judge_models import TierStep as TierStep
from mcptest.report.judge_models import TreeStep as TreeStep
from mcptest.report.lint_models import ConformanceCheckRun as ConformanceCheckRun
from mcptest.report.lint_models import LintFinding as LintFinding
from mcptest.report.lint_models import LintRuleInfo as LintRuleInfo
from mcptest.report.lint_models import LintSection as LintSection
from mcptest.report.measures import AdaptiveSummary as AdaptiveSummary
from mcptest.report.measures import CassetteSummary as CassetteSummary
from mcptest.report.measures import PassAtK as PassAtK
from mcptest.report.measures import RepeatStats as RepeatStats
from mcptest.report.measures import RunAgreement as RunAgreement
from mcptest.report.result_models import AssertionResult as AssertionResult
from mcptest.report.result_models import GapCategory as GapCategory
from mcptest.report.result_models import TestKind as TestKind
from mcptest.report.result_models import TestResult as TestResult
from mcptest.report.result_models import WeightedScore as WeightedScore
from mcptest.report.selection_models import PromptVotes as PromptVotes
from mcptest.report.selection_models import SelectionChange as SelectionChange
from mcptest.report.selection_models import SelectionStats as SelectionStats
from mcptest.report.vote_models import EffectiveJurors as EffectiveJurors
from mcptest.report.vote_models import JudgeVote as JudgeVote
from mcptest.report.vote_models import JuryAnalytics as JuryAnalytics

REPORT_VERSION = 1
MAX_SHARDS = 256
"""Shards of one run: GitHub's job matrix has at most 256 jobs (`--shard` keeps to it too)."""


class ServerReport(Model):
    """One server of the suites: how it was reached and whether it became ready."""

    name: str
    """The server's name in the suite (`servers:` key)."""
    suite_file: str
    """The suite file that declares it."""
    transport: Literal["stdio", "streamable-http", "sse"]
    """How mcptest talked to it: `stdio` (a subprocess), `streamable-http`, or `sse` (legacy
    HTTP+SSE)."""
    status: Literal["ready", "failed", "not_started"]
    """`ready`: it answered `initialize`; `failed`: it never became ready (`error` says why;
    exit 3); `not_started`: it was never started."""
    protocol_version: str | None = None
    """The MCP protocol version negotiated at `initialize`; null when it never got that far."""
    server_name: str | None = None
    """The name the server gave itself (`serverInfo.name`)."""
    server_version: str | None = None
    """The version the server gave (`serverInfo.version`)."""
    startup_ms: Millis | None = None
    """Milliseconds from launch (or connect) to a finished `initialize`; null when it never
    became ready."""
    tools: list[str] = Field(default_factory=list)
    """Names of the tools its `tools/list` returned."""
    error: str | None = None
    """Why it did not become ready (one line); null when it did."""
    stderr_tail: str | None = None
    """The last 2,000 characters it wrote to stderr, kept when one of its tests did not
    pass; null otherwise."""
    era: Literal["legacy", "modern", "dual-era"] | None = None
    """Protocol era the server speaks, when known (`mcptest lint` probes it; docs/lint.md)."""


class Counts(Model):
    """Rows of the run by status."""

    total: Count = 0
    """Rows in `tests` (one per test and matrix cell; a repeated test is one row)."""
    passed: Count = 0
    """Rows with status `passed`."""
    failed: Count = 0
    """Rows with status `failed`."""
    error: Count = 0
    """Rows with status `error`."""
    skipped: Count = 0
    """Rows with status `skipped`."""
    deferred: Count = 0
    """Rows with status `deferred`."""
    not_yet_available: Count = 0
    """Rows with status `not_yet_available`."""
    flaky: Count = 0
    """Rows with status `flaky`."""


class Summary(Model):
    """The run's totals: counts, time, cost and budget, judge calls, agreement and the exit code."""

    counts: Counts
    """Rows by status."""
    duration_ms: Millis
    """Wall time of the whole run, in milliseconds."""
    exit_code: int
    """The code the run exited with (docs/reports.md, "Exit codes"); read back, it is
    counted again from the rows (docs/reports.md, "Reading reports back")."""
    cost_usd: Usd = 0.0
    """What every model call of the run cost, in US dollars (judges, agents, live evals)."""
    max_cost_usd: Usd | None = None
    """The run's budget cap in US dollars (`--max-cost`); null: no cap."""
    budget_stopped: bool = False
    """The cap kept at least one model call from being sent (exit code 5, docs/reports.md)."""
    judge_calls: Count = 0
    """Judge requests actually sent (cache hits excluded)."""
    cache_hits: Count = 0
    """Judge answers taken from the judge cache (nothing sent, nothing spent)."""
    deferred_judges: Count = 0
    """Judge votes that could not be sent because the judge was unreachable (jurors included),
    whether or not their assertion was decided without them."""
    not_measured: Count = 0
    """Rows none of whose runs produced a verdict (deferred, skipped, not yet available): never
    counted as passes (docs/baseline.md, "Repeats")."""
    fail_on_not_measured: bool = False
    """`--fail-on not-measured`: such a row fails the run (exit 1)."""
    projected_judge_calls: Count = 0
    """Judge calls the plan could make at most, counted before the run."""
    cost_bound_usd: Usd | None = None
    """The most those calls could cost, in US dollars; null when some judge model has no
    known price."""
    gaps: dict[GapCategory, Count] = Field(default_factory=dict)
    """Non-passing rows per gap category, largest first."""
    uncalibrated: Count = 0
    """Judged verdicts that were advisory: their judge has no valid calibration record."""
    run_agreement: float | None = None
    """Krippendorff's alpha across all jury assertions of the run (units = assertions)."""
    run_agreement_detail: RunAgreement | None = None
    """Its band, counts and interval."""
    run_agreement_labels: float | None = None
    """Alpha (nominal) across the labeled juries of the run; `run_agreement` (interval) leaves
    them out (docs/jury.md, "Verdict modes")."""
    adaptive: AdaptiveSummary | None = None
    """`repeat: adaptive`: runs taken and what decided the rows (docs/statistics.md)."""
    corrected: list[JudgeCorrection] = Field(default_factory=list)
    """Per judge over the run (a test once): its raw pass rate and, where a calibration record
    measured it, the rate corrected for its errors; where none did, why not
    (docs/statistics.md)."""
    cascade: CascadeSummary | None = None
    """Set when the run graded through an escalation cascade (docs/cascade.md)."""
    interrupted: str | None = None
    """Set when a signal stopped the run early; the report holds what it had."""
    internal_error: str | None = None
    """Set when a bug of mcptest's own stopped the run (exit 70); the report holds what it had."""
    cassettes: CassetteSummary | None = None
    """`--models record|replay|replay-or-record`: what the model cassettes did; null without
    `--models`."""


class ToolInfo(Model):
    """The program that wrote the report."""

    name: str = "mcptest"
    """Always `mcptest`."""
    version: str
    """The mcptest version that wrote the report."""


class ShardInfo(Model):
    """Which slice of a sharded run this report holds (docs/action.md, "Shards")."""

    index: int = Field(ge=1)
    """Which shard this is, from 1."""
    count: int = Field(ge=1, le=MAX_SHARDS)
    """How many shards the run was split into (1 to 256)."""
    plan: list[str] = Field(default_factory=list)
    """Every test id of the whole (unsharded) selection, in run order."""
    run_max_cost_usd: Usd | None = None
    """The whole run's cap in US dollars (`--max-cost` with `--shard`), of which this shard's
    `summary.max_cost_usd` is its slice; null: no cap, or each shard's own
    (`--max-cost-per-shard`)."""

    @model_validator(mode="after")
    def _index_within_count(self) -> ShardInfo:
        if self.index > self.count:
            raise ValueError("the shard index is larger than the shard count")
        return self


class Report(Model):
    """The canonical result of one mcptest run (versioned); every reporter renders it."""

    version: int = REPORT_VERSION
    """The report format's version (1); it changes only when a field changes meaning or
    disappears."""
    tool: ToolInfo
    """The program that wrote it."""
    started_at: str
    """When the run started: ISO 8601, UTC."""
    finished_at: str
    """When the run ended: ISO 8601, UTC."""
    suites: list[str]
    """The suite files run, as given on the command line."""
    servers: list[ServerReport] = Field(default_factory=list)
    """One entry per server of the suites: whether it became ready and what it said about itself."""
    tests: list[TestResult] = Field(default_factory=list)
    """One row per test (and matrix cell), in run order."""
    summary: Summary
    """The run's totals: counts, cost, budget, judge calls, agreement, exit code."""
    warnings: list[str] = Field(default_factory=list)
    """Things the run noticed that are not failures (thresholds set twice, jurors of the
    generator's family, …), one line each."""
    lint: LintSection | None = None
    """Set by `mcptest lint`: protocol, quality and surface findings."""
    shard: ShardInfo | None = None
    """Set on the report of one shard; `mcptest merge` reads it and leaves it out."""
    comparison: Comparison | None = None
    """Set by `--baseline` and `mcptest diff` (docs/baseline.md)."""
