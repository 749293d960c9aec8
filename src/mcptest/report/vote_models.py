"""What each judge said and what a jury made of it: a vote, a lost seat, the jury's analytics
(docs/jury.md). Part of the canonical report; `judge_models.py` holds the detail they sit in."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Confidence, Count, Millis, Model, Usd


class JudgeVote(Model):
    """One answer of one judge model (a juror, a repetition, a panel member or a criterion)."""

    model: str
    """The model id as sent (`(unresolved)` when no model could be resolved for the call)."""
    family: str | None = None
    """Vendor family read from the model id (`anthropic`, `openai`, `google`, …;
    docs/jury.md); null when the id names none."""
    score: float | None = None
    """The judge's score, 0..1; null when the juror abstained or failed."""
    passed: bool | None = None
    """This vote's pass/fail against the threshold; null when it gave no score."""
    abstained: bool = False
    """The judge answered that it could not decide: not decisive, not counted in the quorum."""
    error: str | None = None
    """Why the call failed mechanically (timeout, transport, unparseable)."""
    reason: str | None = None
    """The judge's own explanation of its score (model output: untrusted text)."""
    evidence: str | None = None
    """The span of the answer the judge quoted in support (model output: untrusted text)."""
    repetition: int = 0
    """Which of the juror's `repetitions:` this vote is, from 0."""
    replacement_for: str | None = None
    """Set when this juror stood in for one that failed mechanically."""
    deferred: bool = False
    """The judge could not be reached (no key, no endpoint): no vote, counted in the summary."""
    cost_usd: Usd = 0.0
    """What this call cost in US dollars (0 when cached, deferred or not sent)."""
    cost_known: bool = True
    """`false` when the model had no known price and the provider reported no cost."""
    latency_ms: Millis | None = None
    """How long the model call took, in milliseconds; null when none was sent."""
    cached: bool = False
    """The answer came from the judge cache: no request was sent, nothing spent."""
    replayed_from: str | None = None
    """The model cassette this answer was replayed from (`--models replay`): no request was
    sent; the verdict is the file's (docs/cassettes.md, "What is trusted")."""
    label: str | None = None
    """A labeled juror's answer (`verdict_kind: categorical` with `labels`; docs/jury.md)."""
    value: float | None = None
    """A numeric juror's score in the jury's `score_range` (`score` is it scaled to 0..1)."""


class LostSeat(Model):
    """A juror seat that gave no answer because its calls failed (its stand-in's too)."""

    model: str
    """The juror model whose seat was lost."""
    reason: str
    """Why its calls failed (the error, shortened)."""


def lost_words(answered: int, seats: int, lost: list[LostSeat]) -> str:
    """`2 of 3 jurors answered; gemini-2.5-pro: server error (503 …)`: how every report names
    the seats a jury lost (docs/jury.md, "Lost seats")."""
    named = "; ".join(f"{x.model}: {x.reason}" for x in lost)
    return f"{answered} of {seats} jurors answered; {named}"


class EffectiveJurors(Model):
    """How many independent jurors a jury's verdict and band rest on: Kish's design effect,
    n / (1 + (n − 1)·ρ̄) with ρ̄ the jurors' mean pairwise correlation, negative ones counted as 0
    (docs/jury.md, "Effective jurors")."""

    jurors: Count
    """The distinct jurors compared (n)."""
    value: float | None = None
    """n / (1 + (n − 1)·ρ̄); null when ρ̄ could not be estimated (`note` says why)."""
    basis: Literal["labels", "votes"]
    """`labels`: ρ̄ of the jurors' errors against human labels, from the jury's calibration
    record; `votes`: ρ̄ of their pass/fail votes over the run's juries of the same jurors, which
    also counts jurors agreeing because both are right, so it is never above the labels'."""
    mean_correlation: float | None = None
    """ρ̄ (negative pairwise correlations counted as 0)."""
    items: Count = 0
    """What ρ̄ was estimated over: labels (`labels`), or the run's juries of these jurors
    (`votes`; each repetition's jury is its own)."""
    note: str | None = None
    """Why there is no value: too few juries, or votes that never varied."""


class JuryAnalytics(Model):
    """Agreement and its reading (docs/§5.3), readable as `jury.*` targets."""

    agreement: float | None
    """`agreement_raw` clipped to [0, 1]; null with < 2 decisive jurors."""
    agreement_raw: float | None
    """The lower of `answers_raw` and `votes_raw` (docs/jury.md, "Agreement")."""
    units: Count
    """Rated items the answers' alpha was computed over."""
    answers_raw: float | None = None
    """Krippendorff's alpha of the answers: scores (interval) or labels (nominal)."""
    votes_raw: float | None = None
    """Alpha of the decisive jurors' pass/fail votes (one unit, 1 − 12·s² of the 1/0 votes);
    null when the label itself is the verdict."""
    confidence: Confidence | None = None
    """The band of `agreement_raw`: `high` (≥ 0.8), `medium` (≥ 0.667), `low` (below, or
    undefined; docs/jury.md); null in reports written before the field existed."""
    escalate: bool = False
    """`true` exactly when `confidence` is `low`: the verdict stands but is marked for a
    person to review (docs/jury.md, "Confidence band and escalation")."""
    same_family: bool
    """Some juror shares a vendor family with the model that wrote the graded answer (agent
    tests); false when that model is unknown."""
    bias_warning: str | None = None
    """Set when `same_family` and `escalate` both hold: which jurors share the generator's
    family, in one sentence."""
    decisive: int
    """Jurors that gave a score (not abstained, not failed)."""
    passed_jurors: int
    """Decisive jurors that passed."""
    passed_fraction: float | None
    """Weight of the passing jurors over that of the decisive ones, rounded half-up to two
    decimals; null without a decisive juror."""
    quorum: float
    """The share of decisive weight that must pass for the jury to pass (its `quorum:`, 0..1)."""
    verdict: Literal["passed", "failed", "inconclusive", "unknown"]
    """What the jury decided: `passed`, `failed`, `inconclusive` (no decisive juror, fewer
    than `min_jurors`, or a tie: the assertion fails), `unknown` (a labeled jury without
    `passing_labels`; docs/jury.md, "Verdict modes")."""
    jurors_asked: int | None = None
    """With `early_stop`: the jurors asked (everything above rests on them); null: all were."""
    calls_saved: int = 0
    """With `early_stop`: judge calls not sent because the quorum was already settled."""
    panel: bool = False
    """An eval panel: decided by mean, median or majority, so it has no quorum to show."""
    deferred: int = 0
    """Jurors that could not be reached; the verdict stands only when their votes could not
    have changed it (docs/jury.md, "Partial juries")."""
    seats: int | None = None
    """Jurors asked; `decisive` of them the verdict and `agreement` rest on. null in reports
    written before the field existed."""
    lost: list[LostSeat] = Field(default_factory=list)
    """Seats lost to an error, each with its reason: never silent (docs/jury.md, "Lost
    seats")."""
    effective_jurors: EffectiveJurors | None = None
    """How many independent jurors the verdict and the band rest on (docs/jury.md, "Effective
    jurors"); null for a single juror and in reports written before the field existed."""
