"""A test's row in the canonical report and its assertions' rows (docs/reports.md)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from mcptest.report.base import Count, Location, Millis, Model, Status, Usd
from mcptest.report.comparison_models import RowComparison
from mcptest.report.corrected_models import CorrectedRate
from mcptest.report.judge_models import CalibrationNote, JudgeDetail
from mcptest.report.measures import RepeatStats
from mcptest.report.selection_models import SelectionStats
from mcptest.report.timeline_models import WireStep

GapCategory = Literal[
    "transport", "protocol", "suite", "tool-error", "shape", "judgment", "judge-reliability",
    "judge-calibration", "budget", "environment", "flaky", "replay", "selection",
]
TestKind = Literal["tool", "eval", "agent", "resource", "prompt", "list", "selection"]


class AssertionResult(Model):
    """One assertion of a test (an `expect:` entry) as it was checked."""

    index: Count
    """Position of the assertion in the test's `expect:` list, from 0; the suite's
    `defaults.expect` follow the test's own."""
    target: str
    """What was checked, as the suite wrote it (`result`, `result.content[0].text`,
    `jury.agreement`, …)."""
    matcher: str
    """Matcher kind: exact, contains, regex, schema, not, all, any, llm-judge, llm-jury, …"""
    spec: Any = None
    """The matcher's configuration as written (JSON), for display."""
    status: Status
    """`passed`, `failed`, `error` (the check could not run), `skipped`, `deferred` (its
    judge could not be reached), `not_yet_available` (docs/reports.md, "Statuses")."""
    message: str | None = None
    """Why it did not pass: expected vs actual, the missing path segment, the skip reason."""
    user_message: str | None = None
    """The assertion's own `message:` from the suite."""
    expected: Any = None
    """What the matcher wanted, when it can be shown as a value (redacted); null otherwise."""
    actual: Any = None
    """The value found at `target` (redacted); null when nothing was read."""
    location: Location | None = None
    """Where the assertion is written in the suite file."""
    duration_ms: Millis = 0.0
    """Wall time of this check, in milliseconds (judge calls included)."""
    cost_usd: Usd = 0.0
    """What its judge calls cost, in US dollars (0 for a deterministic check or a cache hit)."""
    cached: bool = False
    """Its judge answers came from the judge cache: nothing was sent."""
    judge: JudgeDetail | None = None
    """Set on judged assertions (`llm-judge`, `llm-jury`, `eval-rubric`, `custom-judge`):
    what the judges said."""
    calibration: CalibrationNote | None = None
    """Set on judged assertions whose judge is gated by `calibration:`."""
    outside_verdict: bool = False
    """A skip with a note that leaves the test's verdict to its other assertions: a
    `jury.agreement` check on a jury with fewer than two decisive jurors (docs/jury.md)."""
    definition_hash: str | None = None
    """Hash of the assertion as it ran (target, matcher, rubric, judge models, thresholds):
    rows of two runs are compared only when it matches."""
    weight: float | None = None
    """Its `weight:` in a test scored `weighted` (null under the default gate)."""
    score: float | None = None
    """Weighted tests: what it scored (a check 1 or 0, a judge its score; null: not counted)."""
    contribution: float | None = None
    """Weighted tests: `weight × score / Σ weight`, its share of the test's score."""


class WeightedScore(Model):
    """A test scored `weighted` (docs/cascade.md, "Weighted tiers and a reference")."""

    score: float | None
    """Weighted mean of the counted assertions' scores (null: no weight at all)."""
    threshold: float
    """The score the test must reach to pass (its `scoring.threshold`)."""
    best: float | None = None
    """The highest score still possible when some assertions were not scored."""


class TestResult(Model):
    """One row of the run: a test (one per matrix cell), its verdict, what the server answered
    and every assertion."""

    id: str
    """Stable id: `<file>::<kind>::<name>[<cell>]`."""
    name: str
    """The test's name, with the matrix cell's values when it has one."""
    kind: TestKind = "tool"
    """`tool` a tool call, `eval` a rubric eval, `agent` a live agent test, `resource` a
    resource read, `prompt` a prompt get, `list` a listing (`tools/list`, …)."""
    suite_file: str
    """The suite file it comes from, as given on the command line."""
    server: str | None = None
    """The suite's name of the server it ran against; null for rows without one."""
    tool: str | None = None
    """What a server test addresses: the tool, the resource URI or template, the prompt, or
    the listing's method; null for evals and agents."""
    model: str | None = None
    """Agent or live-eval model (one row per model)."""
    cell: dict[str, str] | None = None
    """Matrix coordinates of this row: axis name to value; null when the test has no matrix."""
    location: Location
    """Where the test is written in the suite file."""
    tags: list[str] = Field(default_factory=list)
    """The test's `tags:`, as written (for `--tag` selection and grouping)."""
    status: Status
    """The row's verdict: `passed`, `failed`, `error`, `skipped`, `deferred`,
    `not_yet_available`, `flaky` (docs/reports.md, "Statuses")."""
    gap: GapCategory | None = None
    """Why a row did not pass, as a category (docs/reports.md, "Statuses"); null when it passed."""
    message: str | None = None
    """Test-level cause when the test errored or was skipped as a whole."""
    duration_ms: Millis = 0.0
    """Wall time of the row, in milliseconds (the tool call and every check; a repeated row:
    all its repetitions)."""
    args: Any = None
    """The arguments as the suite gave them (tool, prompt and resource-template tests;
    redacted); null for other kinds."""
    response: Any = None
    """What the server answered: `{"result": …}` or `{"error": …}` (redacted, shortened)."""
    server_stderr: str | None = None
    """What the server wrote to stderr while this test's request was in flight (its last 2,000
    characters), kept when the test did not pass."""
    server_stderr_scope: Literal["test", "server"] | None = None
    """`test`: `server_stderr` holds only this test's window; `server` or unset (reports written
    before the window existed): the server's tail at the time, other tests' lines included."""
    timeline: list[WireStep] = Field(default_factory=list)
    """Server tests that did not pass: every JSON-RPC message between mcptest and the server
    while the test's request was in flight, in order (at most 64: the last ones), with its
    payload (docs/view.md); empty on a passing test."""
    timeline_dropped: Count = 0
    """Messages of that exchange that came before the 64 kept."""
    assertions: list[AssertionResult] = Field(default_factory=list)
    """Every assertion graded for the test, in suite order (the suite's `defaults.expect` last)."""
    judge: JudgeDetail | None = None
    """Eval-level judging (evals and `eval-rubric`)."""
    calibration: CalibrationNote | None = None
    """Set on eval rows whose judge is gated by `calibration:`."""
    cost_usd: Usd = 0.0
    """What the row's model calls cost, in US dollars (judges, and an agent's or live eval's
    model); a lower bound when `cost_known` is false."""
    cost_known: bool = True
    """`false` when a judge or agent model had no known price: `cost_usd` is then a lower bound."""
    cache_hits: Count = 0
    """Judge answers this row took from the judge cache (nothing was sent for them)."""
    evidence: list[str] = Field(default_factory=list)
    """Committed files this verdict rests on that differ from the merge-base
    (`--evidence-base`): the model cassette it was replayed from, the calibration record that
    gated its judge (docs/cassettes.md, "What is trusted")."""
    definition_hash: str | None = None
    """Hash of the test as it ran (tool, args, matchers, rubric, judge models, thresholds)."""
    repeat: RepeatStats | None = None
    """Set on a repeated test: pass counts, rates and score spread over its repetitions."""
    repetitions: list[TestResult] = Field(default_factory=list)
    """Every repetition of a repeated test, in order (each without repetitions of its own)."""
    baseline: RowComparison | None = None
    """Set by `--baseline` and `mcptest diff`: how this row compares with the baseline's."""
    max_score_drop: float | None = None
    """The suite's gate on this row's judged score against a baseline (the test's own, else the
    suite's); `--max-score-drop` applies where it is null."""
    weighted: WeightedScore | None = None
    """Set on tests with `scoring: {mode: weighted}`: their score and threshold."""
    selection: SelectionStats | None = None
    """A selection row's votes, accuracy and margin (docs/selection.md); null on other rows."""
    corrected: list[CorrectedRate] = Field(default_factory=list)
    """Its judged pass rate (every repetition's verdicts) corrected for the judge's errors,
    per calibration record that measured its judge (docs/statistics.md)."""
