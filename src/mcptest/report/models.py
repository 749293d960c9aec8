"""The canonical report: one versioned document that every reporter renders.

Bump `REPORT_VERSION` whenever a field changes meaning or disappears; adding an optional field
does not need a bump. `schema/report-v1.json` is generated from these models.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, model_validator

from mcptest.report.base import Confidence as Confidence
from mcptest.report.base import Count, Millis, Rate, Usd
from mcptest.report.base import Interval as Interval
from mcptest.report.base import Location as Location
from mcptest.report.base import Model as Model
from mcptest.report.judge_models import CalibrationNote as CalibrationNote
from mcptest.report.judge_models import CalibrationState as CalibrationState
from mcptest.report.judge_models import CriterionResult as CriterionResult
from mcptest.report.judge_models import JudgeDetail as JudgeDetail
from mcptest.report.judge_models import JudgeVote as JudgeVote
from mcptest.report.judge_models import JuryAnalytics as JuryAnalytics
from mcptest.report.judge_models import TreeStep as TreeStep
from mcptest.report.lint_models import LintFinding as LintFinding
from mcptest.report.lint_models import LintRuleInfo as LintRuleInfo
from mcptest.report.lint_models import LintSection as LintSection
from mcptest.report.measures import PassAtK as PassAtK
from mcptest.report.measures import RepeatStats as RepeatStats
from mcptest.report.measures import RunAgreement as RunAgreement

REPORT_VERSION = 1
MAX_SHARDS = 256
"""Shards of one run: GitHub's job matrix has at most 256 jobs (`--shard` keeps to it too)."""

Status = Literal[
    "passed", "failed", "error", "skipped", "deferred", "not_yet_available", "flaky",
]
"""`deferred`: a judge could not be reached (no key); not measured: it does not fail the run
unless --require-judge (or --fail-on not-measured), and never counts as a pass.
`flaky`: the repetitions of a repeated test disagreed; `repeat.met` says whether its pass rate
reached `min_pass_rate` (docs/baseline.md)."""

Change = Literal[
    "regressed", "fixed", "still_failing", "newly_flaky", "new", "removed", "changed",
    "unchanged", "insufficient_data", "unconfirmed", "not_measured",
]
"""How a row compares with the baseline's row of the same id (docs/baseline.md)."""

GapCategory = Literal[
    "transport", "protocol", "tool-error", "shape", "judgment", "judge-reliability",
    "judge-calibration", "budget", "environment", "flaky",
]
TestKind = Literal["tool", "eval", "agent", "resource", "prompt", "list"]


class AssertionResult(Model):
    index: Count
    target: str
    matcher: str
    """Matcher kind: exact, contains, regex, schema, not, all, any, llm-judge, llm-jury, …"""
    spec: Any = None
    """The matcher's configuration as written (JSON), for display."""
    status: Status
    message: str | None = None
    """Why it did not pass: expected vs actual, the missing path segment, the skip reason."""
    user_message: str | None = None
    """The assertion's own `message:` from the suite."""
    expected: Any = None
    actual: Any = None
    location: Location | None = None
    duration_ms: Millis = 0.0
    cost_usd: Usd = 0.0
    cached: bool = False
    judge: JudgeDetail | None = None
    calibration: CalibrationNote | None = None
    """Set on judged assertions whose judge is gated by `calibration:`."""
    outside_verdict: bool = False
    """A skip with a note that leaves the test's verdict to its other assertions: a
    `jury.agreement` check on a jury with fewer than two decisive jurors (docs/jury.md)."""
    definition_hash: str | None = None
    """Hash of the assertion as it ran (target, matcher, rubric, judge models, thresholds):
    rows of two runs are compared only when it matches."""
    weight: float | None = None
    """Its `weight:` in a test scored `weighted` (None under the default gate)."""
    score: float | None = None
    """Weighted tests: what it scored (a check 1 or 0, a judge its score; None: not counted)."""
    contribution: float | None = None
    """Weighted tests: `weight × score / Σ weight`, its share of the test's score."""


class WeightedScore(Model):
    """A test scored `weighted` (docs/cascade.md, "Weighted tiers and a reference")."""

    score: float | None
    """Weighted mean of the counted assertions' scores (None: no weight at all)."""
    threshold: float
    best: float | None = None
    """The highest score still possible when some assertions were not scored."""


class TestResult(Model):
    id: str
    """Stable id: `<file>::<kind>::<name>[<cell>]`."""
    name: str
    kind: TestKind = "tool"
    suite_file: str
    server: str | None = None
    tool: str | None = None
    model: str | None = None
    """Agent or live-eval model (one row per model)."""
    cell: dict[str, str] | None = None
    """Matrix coordinates of this row."""
    location: Location
    tags: list[str] = Field(default_factory=list)
    status: Status
    gap: GapCategory | None = None
    message: str | None = None
    """Test-level cause when the test errored or was skipped as a whole."""
    duration_ms: Millis = 0.0
    args: Any = None
    response: Any = None
    """What the server answered: `{"result": …}` or `{"error": …}` (redacted, shortened)."""
    server_stderr: str | None = None
    """What the server wrote to stderr while this test's request was in flight (its last 2,000
    characters), kept when the test did not pass."""
    server_stderr_scope: Literal["test", "server"] | None = None
    """`test`: `server_stderr` holds only this test's window; `server` or unset (reports written
    before the window existed): the server's tail at the time, other tests' lines included."""
    assertions: list[AssertionResult] = Field(default_factory=list)
    judge: JudgeDetail | None = None
    """Eval-level judging (evals and `eval.rubric`)."""
    calibration: CalibrationNote | None = None
    """Set on eval rows whose judge is gated by `calibration:`."""
    cost_usd: Usd = 0.0
    cost_known: bool = True
    """False when a judge or agent model had no known price: `cost_usd` is then a lower bound."""
    cache_hits: Count = 0
    definition_hash: str | None = None
    """Hash of the test as it ran (tool, args, matchers, rubric, judge models, thresholds)."""
    repeat: RepeatStats | None = None
    repetitions: list[TestResult] = Field(default_factory=list)
    """Every repetition of a repeated test, in order (each without repetitions of its own)."""
    baseline: RowComparison | None = None
    """Set by `--baseline` and `mcptest diff`: how this row compares with the baseline's."""
    max_score_drop: float | None = None
    """The suite's gate on this row's judged score against a baseline (the test's own, else the
    suite's); `--max-score-drop` applies where it is None."""
    weighted: WeightedScore | None = None
    """Set on tests with `scoring: {mode: weighted}`: their score and threshold."""


class RowComparison(Model):
    """One row of a comparison with a baseline run (docs/baseline.md)."""

    id: str
    name: str
    change: Change
    old_status: Status | None = None
    new_status: Status | None = None
    old_pass_rate: Rate | None = None
    new_pass_rate: Rate | None = None
    p_value: Rate | None = None
    """One-sided Fisher exact test on pass counts, when either side was repeated."""
    p_adjusted: Rate | None = None
    """`p_value` adjusted by Benjamini–Hochberg over every tested row (docs/baseline.md): the
    row is `regressed` (or `fixed`) when it is at most the comparison's q (`alpha`)."""
    old_scored: Count | None = None
    new_scored: Count | None = None
    """Runs each side's pass rate is over (runs that produced a verdict)."""
    repeats_needed: Count | None = None
    """`unconfirmed` and `insufficient_data`: repetitions on each side at which a drop the size
    of the one observed would be significant at q on its own; None past 100."""
    score_delta: float | None = None
    old_cost_usd: Usd | None = None
    new_cost_usd: Usd | None = None
    """None when that side's cost is unknown (never shown as 0)."""
    cost_delta_usd: float | None = None
    duration_delta_ms: float | None = None
    gated: bool = False
    """The score dropped by more than `max_score_drop`."""


class Comparison(Model):
    """A run compared with a baseline run: per-row changes and the totals."""

    baseline: str
    """Where the baseline came from (a path, or `artifact <name> @ <sha>`)."""
    baseline_started_at: str | None = None
    note: str | None = None
    """One line for the reader (how stale the baseline is, why there is none)."""
    alpha: Rate
    """q, the false discovery rate across the tested rows (Benjamini–Hochberg); with one
    tested row it is the plain significance level of Fisher's test."""
    tested: Count = 0
    """Rows whose pass counts were tested (either side repeated, both sides scored)."""
    fail_on: Literal["regressed", "any-failure"]
    fail_on_not_measured: bool = False
    """`--fail-on not-measured`: a row with no scored run fails the gate."""
    max_score_drop: Rate | None = None
    counts: dict[str, Count] = Field(default_factory=dict)
    rows: list[RowComparison] = Field(default_factory=list)
    """Every row that is not `unchanged`, baseline rows that are gone included."""
    old_cost_usd: Usd | None = None
    new_cost_usd: Usd | None = None
    cost_delta_usd: float | None = None
    duration_delta_ms: float | None = None


class ServerReport(Model):
    name: str
    suite_file: str
    transport: Literal["stdio", "streamable-http", "sse"]
    status: Literal["ready", "failed", "not_started"]
    protocol_version: str | None = None
    server_name: str | None = None
    server_version: str | None = None
    startup_ms: Millis | None = None
    tools: list[str] = Field(default_factory=list)
    error: str | None = None
    stderr_tail: str | None = None
    era: Literal["legacy", "modern", "dual-era"] | None = None
    """Protocol era the server speaks, when known (`mcptest lint` probes it; docs/lint.md)."""


class Counts(Model):
    total: Count = 0
    passed: Count = 0
    failed: Count = 0
    error: Count = 0
    skipped: Count = 0
    deferred: Count = 0
    not_yet_available: Count = 0
    flaky: Count = 0


class Summary(Model):
    counts: Counts
    duration_ms: Millis
    exit_code: int
    """Read back, it is recomputed from the rows (docs/reports.md, "Reading reports back")."""
    cost_usd: Usd = 0.0
    max_cost_usd: Usd | None = None
    budget_stopped: bool = False
    judge_calls: Count = 0
    """Judge requests actually sent (cache hits excluded)."""
    cache_hits: Count = 0
    deferred_judges: Count = 0
    """Judge votes that could not be sent because the judge was unreachable (jurors included),
    whether or not their assertion was decided without them."""
    not_measured: Count = 0
    """Rows none of whose runs produced a verdict (deferred, skipped, not yet available): never
    counted as passes (docs/baseline.md, "Repeats")."""
    fail_on_not_measured: bool = False
    """`--fail-on not-measured`: such a row fails the run (exit 1)."""
    projected_judge_calls: Count = 0
    cost_bound_usd: Usd | None = None
    gaps: dict[GapCategory, Count] = Field(default_factory=dict)
    uncalibrated: Count = 0
    """Judged verdicts that were advisory: their judge has no valid calibration record."""
    run_agreement: float | None = None
    """Krippendorff's alpha across all jury assertions of the run (units = assertions)."""
    run_agreement_detail: RunAgreement | None = None
    """Its band, counts and interval."""
    run_agreement_labels: float | None = None
    """Alpha (nominal) across the labeled juries of the run; `run_agreement` (interval) leaves
    them out (docs/jury.md, "Verdict modes")."""
    interrupted: str | None = None
    """Set when a signal stopped the run early; the report holds what it had."""
    internal_error: str | None = None
    """Set when a bug of mcptest's own stopped the run (exit 70); the report holds what it had."""


class ToolInfo(Model):
    name: str = "mcptest"
    version: str


class ShardInfo(Model):
    """Which slice of a sharded run this report holds (docs/action.md, "Shards")."""

    index: int = Field(ge=1)
    count: int = Field(ge=1, le=MAX_SHARDS)
    plan: list[str] = Field(default_factory=list)
    """Every test id of the whole (unsharded) selection, in run order."""

    @model_validator(mode="after")
    def _index_within_count(self) -> ShardInfo:
        if self.index > self.count:
            raise ValueError("the shard index is larger than the shard count")
        return self


class Report(Model):
    version: int = REPORT_VERSION
    tool: ToolInfo
    started_at: str
    """ISO 8601, UTC."""
    finished_at: str
    suites: list[str]
    servers: list[ServerReport] = Field(default_factory=list)
    tests: list[TestResult] = Field(default_factory=list)
    summary: Summary
    warnings: list[str] = Field(default_factory=list)
    lint: LintSection | None = None
    """Set by `mcptest lint`: protocol, quality and surface findings."""
    shard: ShardInfo | None = None
    """Set on the report of one shard; `mcptest merge` reads it and leaves it out."""
    comparison: Comparison | None = None
    """Set by `--baseline` and `mcptest diff` (docs/baseline.md)."""
