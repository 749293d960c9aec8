"""What a judged assertion or eval row records: each vote, the jury's analytics, criteria, a
tree's path and calibration (docs/jury.md, docs/evals.md). Part of the canonical report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Confidence, Count, Interval, Millis, Model, Usd


class JudgeVote(Model):
    """One answer of one judge model (a juror, a repetition, a panel member or a criterion)."""

    model: str
    family: str | None = None
    score: float | None = None
    """0..1; None when the juror abstained or failed."""
    passed: bool | None = None
    abstained: bool = False
    error: str | None = None
    """Why the call failed mechanically (timeout, transport, unparseable)."""
    reason: str | None = None
    evidence: str | None = None
    repetition: int = 0
    replacement_for: str | None = None
    """Set when this juror stood in for one that failed mechanically."""
    deferred: bool = False
    """The judge could not be reached (no key, no endpoint): no vote, counted in the summary."""
    cost_usd: Usd = 0.0
    cost_known: bool = True
    """False when the model had no known price and the provider reported no cost."""
    latency_ms: Millis | None = None
    cached: bool = False
    label: str | None = None
    """A labeled juror's answer (`verdict_kind: categorical` with `labels`; docs/jury.md)."""
    value: float | None = None
    """A numeric juror's score in the jury's `score_range` (`score` is it scaled to 0..1)."""


class LostSeat(Model):
    """A juror seat that gave no answer because its calls failed (its stand-in's too)."""

    model: str
    reason: str


def lost_words(answered: int, seats: int, lost: list[LostSeat]) -> str:
    """`2 of 3 jurors answered; gemini-2.5-pro: server error (503 …)`: how every report names
    the seats a jury lost (docs/jury.md, "Lost seats")."""
    named = "; ".join(f"{x.model}: {x.reason}" for x in lost)
    return f"{answered} of {seats} jurors answered; {named}"


class JuryAnalytics(Model):
    """Agreement and its reading (docs/§5.3), readable as `jury.*` targets."""

    agreement: float | None
    """`agreement_raw` clipped to [0, 1]; None with < 2 decisive jurors."""
    agreement_raw: float | None
    """The lower of `answers_raw` and `votes_raw` (docs/jury.md, "Agreement")."""
    units: Count
    """Rated items the answers' alpha was computed over."""
    answers_raw: float | None = None
    """Krippendorff's alpha of the answers: scores (interval) or labels (nominal)."""
    votes_raw: float | None = None
    """Alpha of the decisive jurors' pass/fail votes (one unit, 1 − 12·s² of the 1/0 votes);
    None when the label itself is the verdict."""
    confidence: Confidence | None = None
    """None in reports written before the field existed (they load unchanged)."""
    escalate: bool = False
    same_family: bool
    bias_warning: str | None = None
    decisive: int
    """Jurors that gave a score (not abstained, not failed)."""
    passed_jurors: int
    passed_fraction: float | None
    quorum: float
    verdict: Literal["passed", "failed", "inconclusive", "unknown"]
    """`unknown`: a labeled jury without `passing_labels` (docs/jury.md, "Verdict modes")."""
    jurors_asked: int | None = None
    """With `early_stop`: the jurors asked (everything above rests on them); None: all were."""
    calls_saved: int = 0
    """With `early_stop`: judge calls not sent because the quorum was already settled."""
    panel: bool = False
    """An eval panel: decided by mean, median or majority, so it has no quorum to show."""
    deferred: int = 0
    """Jurors that could not be reached; the verdict stands only when their votes could not
    have changed it (docs/jury.md, "Partial juries")."""
    seats: int | None = None
    """Jurors asked; `decisive` of them the verdict and `agreement` rest on. None in reports
    written before the field existed."""
    lost: list[LostSeat] = Field(default_factory=list)
    """Seats lost to an error, each with its reason: never silent (docs/jury.md, "Lost
    seats")."""


class CriterionResult(Model):
    name: str
    score: float | None = None
    threshold: float | None = None
    weight: float = 1.0
    required: bool = False
    guard: bool = False
    status: Literal["passed", "failed", "skipped", "error", "deferred"] = "passed"
    """`deferred`: its judge could not be reached (no key); `skipped`: `when` did not hold, or
    the budget refused the call; `error`: the judge failed."""
    reason: str | None = None
    evidence: str | None = None


class TreeStep(Model):
    ask: str
    answer: Literal["yes", "no"] | None
    score: float | None = None


class JudgeDetail(Model):
    """What the judges said for one LLM assertion or eval."""

    kind: Literal["llm-judge", "llm-jury", "eval", "custom"]
    rubric: str | None = None
    score: float | None = None
    display_score: str | None = None
    """The score as a person reads it (`4.2/5`, `84%`); gating always uses `score`."""
    threshold: float | None = None
    votes: list[JudgeVote] = Field(default_factory=list)
    jury: JuryAnalytics | None = None
    criteria: list[CriterionResult] = Field(default_factory=list)
    path: list[TreeStep] = Field(default_factory=list)
    vacuous: bool = False
    verdict_kind: Literal["boolean", "labeled", "numeric"] | None = None
    """A jury's verdict mode (docs/jury.md, "Verdict modes"); None: the quorum rule."""
    verdict: str | None = None
    """The panel's answer: its plurality label (`pass`/`fail` in the boolean mode) or, numeric,
    its mean or median score as `score_range` reads it; None when no answer won."""
    passed: bool | None = None
    """Set in a verdict mode; None there means passed is unknown (no `passing_labels`)."""
    aggregate: Literal["mean", "median", "plurality", "majority"] | None = None
    """`majority`: an eval panel's pass/fail count, an even split going to `tie_break`."""
    tally: dict[str, float] = Field(default_factory=dict)
    """Categorical modes: the jurors' weight behind each answer."""


CalibrationState = Literal["calibrated", "missing", "stale", "below-floor", "too-few-labels",
                           "unreadable"]


class CalibrationNote(Model):
    """How far a judged verdict can be trusted: its judge's agreement with human labels
    (docs/calibration.md). `advisory` verdicts never fail a run unless --require-calibration."""

    state: CalibrationState
    advisory: bool
    record: str
    """The calibration record's path as the suite wrote it."""
    verdict: Literal["passed", "failed"] | None = None
    """What the judge said, kept when the row's status does not follow it (advisory)."""
    reason: str | None = None
    labels: int | None = None
    kappa: float | None = None
    kappa_ci95: Interval | None = None
    """The record's 95% bootstrap interval of kappa."""
    min_agreement_on: Literal["estimate", "lower_bound"] = "estimate"
    effective_jurors: float | None = None
    """A jury: what it is worth in independent jurors (docs/calibration.md)."""
    warnings: list[str] = Field(default_factory=list)
    """Near-duplicate jurors, from the record."""
    alpha: float | None = None
    accuracy: float | None = None
    false_pass_rate: float | None = None
    false_fail_rate: float | None = None
    min_agreement: float | None = None
    max_false_fail: float | None = None
