"""What a judged assertion or eval row records: each vote, the jury's analytics, criteria, a
tree's path and calibration (docs/jury.md, docs/evals.md). Part of the canonical report."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from mcptest.report.base import Count, Interval, Model, Usd
from mcptest.report.corrected_models import JudgeErrorCounts
from mcptest.report.vote_models import JudgeVote, JuryAnalytics


class CriterionResult(Model):
    """One criterion of a criteria rubric: its score and gates (docs/evals.md)."""

    name: str
    """The criterion's `name` in the rubric."""
    score: float | None = None
    """Its judged score, 0..1; null when it was not judged (skipped, deferred, error)."""
    threshold: float | None = None
    """Its own `threshold:` gate; null when the rubric's applies."""
    weight: float = 1.0
    """Its weight in the rubric's aggregate (`weight:`, default 1)."""
    required: bool = False
    """`required: true`: the eval fails unless this criterion reaches its threshold."""
    guard: bool = False
    """`guard: true`: it names what must not hold; reaching the threshold fails the eval,
    and it never enters the average."""
    status: Literal["passed", "failed", "skipped", "error", "deferred"] = "passed"
    """`passed`/`failed`: its score against its threshold (a guard: reaching it fails);
    `deferred`: its judge could not be reached (no key); `skipped`: `when` did not hold, or
    the budget refused the call; `error`: the judge failed."""
    reason: str | None = None
    """The judge's explanation (model output: untrusted text)."""
    evidence: str | None = None
    """The span of the candidate the judge quoted; with `require_evidence` it was checked to
    be in the candidate."""


class TreeStep(Model):
    """One node of a tree rubric that the walk asked (docs/evals.md, "Trees")."""

    ask: str
    """The node's question as the rubric wrote it."""
    answer: Literal["yes", "no"] | None
    """`yes` when the judge scored the node 0.5 or more; null when it gave no score."""
    score: float | None = None
    """The judge's score for the node, 0..1; null when it gave none."""


class TierStep(Model):
    """One tier of an escalation cascade on one assertion: whether it ran, what it said, and
    why its verdict stood or escalated (docs/cascade.md, "Trust or escalate")."""

    tier: int = Field(ge=1)
    """Its place in the cascade, 1-based: 1 is the `llm-judge` itself, then `escalate:`."""
    kind: Literal["llm-judge", "llm-jury"]
    """A single judge or a jury."""
    models: list[str]
    """The model (a jury: every juror's) it asks."""
    ran: bool
    """It was asked; false for a tier without a threshold, or after an earlier tier decided."""
    verdict: Literal["passed", "failed"] | None = None
    """None: it did not run, or gave no verdict (abstained, errored, deferred)."""
    score: float | None = None
    """Its score (a jury: the weighted share of decisive jurors that passed)."""
    confidence: float | None = None
    """How sure it was: its score's (a jury: its pass share's) distance from its line, 0..1."""
    threshold: float | None = None
    """What its confidence had to reach, from the calibration record; None: it is never
    trusted (no threshold, or no calibrated record), or it is the last tier."""
    decided: bool = False
    """Its verdict is the assertion's."""
    reason: str
    """Why it stood, escalated or did not run, in words."""
    cost_usd: Usd = 0.0
    """What this tier spent here."""
    cached: bool = False
    """Its verdict came from the judge cache (nothing was spent)."""
    votes: list[JudgeVote] = Field(default_factory=list)
    """A tier that ran and escalated: its votes (the deciding tier's are the detail's own)."""


class Escalation(Model):
    """An escalation cascade's path on one assertion: the tier that decided and every step."""

    decided_by: int | None
    """The tier (1-based) whose verdict is the assertion's; None when none gave one."""
    tiers: list[TierStep]
    """Every tier, in order, including those that did not run."""
    calibrated: bool
    """The thresholds came from a calibrated record; else only the last tier decides."""
    target_agreement: float | None = None
    """The record's `--target-agreement`: the agreement each trusted tier keeps."""
    guaranteed_agreement: float | None = None
    """The record's guarantee for the whole cascade (docs/cascade.md, "The guarantee")."""
    last_tier_cost_usd: Usd | None = None
    """What the last tier cost here, or would have cost (its mean per verdict in the
    calibration record) when an earlier tier decided: what the cascade saves against."""


class CascadeSummary(Model):
    """The run's escalation cascades together (docs/cascade.md, "In reports")."""

    verdicts: Count
    """Cascade assertions that a tier decided."""
    settled: list[Count]
    """Per tier (the first entry is tier 1): the verdicts it decided."""
    cost_usd: Usd
    """What the cascades spent."""
    last_tier_cost_usd: Usd | None = None
    """The last tier on every one of them: what it cost where it ran, its mean per verdict in the
    calibration record where an earlier tier decided. None when a record does not say."""
    saved_usd: float | None = None
    """`last_tier_cost_usd − cost_usd`."""
    guaranteed_agreement: float | None = None
    """The lowest guarantee among the run's calibrated cascades."""
    uncalibrated: Count = 0
    """Verdicts of cascades without a calibrated record: only their last tier decided."""


class JudgeDetail(Model):
    """What the judges said for one LLM assertion or eval."""

    kind: Literal["llm-judge", "llm-jury", "eval", "custom"]
    """`llm-judge` one judge, `llm-jury` a jury, `eval` an eval's rubric (`eval-rubric`, an
    eval row), `custom` a `custom-judge` matcher."""
    rubric: str | None = None
    """The rubric as sent to the judges (a criteria or tree rubric: a one-line description
    of it)."""
    score: float | None = None
    """The verdict's score, 0..1 (a jury: its aggregate; a rubric: the criteria's aggregate
    or the tree's leaf); null when none was given."""
    display_score: str | None = None
    """The score as a person reads it (`4.2/5`, `84%`); gating always uses `score`."""
    threshold: float | None = None
    """The score the answer had to reach to pass; null in verdict modes without one."""
    votes: list[JudgeVote] = Field(default_factory=list)
    """Every answer behind the verdict (jurors, repetitions, panel members, criteria), in the
    order asked."""
    jury: JuryAnalytics | None = None
    """Agreement and its reading; set for juries and eval panels."""
    criteria: list[CriterionResult] = Field(default_factory=list)
    """A criteria rubric: each criterion's score and gates, in rubric order."""
    path: list[TreeStep] = Field(default_factory=list)
    """A tree rubric: every node asked, root first, down to the leaf."""
    vacuous: bool = False
    """Every criterion was skipped (`when:` did not hold): the eval passed with nothing judged."""
    verdict_kind: Literal["boolean", "labeled", "numeric"] | None = None
    """A jury's verdict mode (docs/jury.md, "Verdict modes"); null: the quorum rule."""
    verdict: str | None = None
    """The panel's answer: its plurality label (`pass`/`fail` in the boolean mode) or, numeric,
    its mean or median score as `score_range` reads it; null when no answer won."""
    passed: bool | None = None
    """Set in a verdict mode; null there means passed is unknown (no `passing_labels`)."""
    aggregate: Literal["mean", "median", "plurality", "majority"] | None = None
    """How a panel combined its answers: `mean`, `median`, `plurality` (verdict modes) or
    `majority` (an eval panel's pass/fail count, an even split going to `tie_break`); null:
    the quorum rule."""
    tally: dict[str, float] = Field(default_factory=dict)
    """Categorical modes: the jurors' weight behind each answer."""
    escalation: Escalation | None = None
    """An `llm-judge` with `escalate:`: the tiers it went through; the rest of this detail is
    the deciding tier's (docs/cascade.md)."""

    @property
    def unheard(self) -> bool:
        """No judge answered: every vote was deferred, refused by the budget or a judge error."""
        return bool(self.votes) and all(v.error is not None or v.deferred for v in self.votes)


JUDGE_REQUIRED = "judge required but unavailable"
"""How the failure begins that `--require-judge` makes of judges that could not be asked (a
lone judge, or one juror of a jury: docs/judges.md)."""


def judges_said(status: str, message: str | None, judge: JudgeDetail | None) -> bool:
    """Whether `status` is what judges said, for the calibration gate and the judged rates: not
    when no judge answered, nor a failure `--require-judge` made of judges that could not be
    asked (a jury with one juror answered and one deferred fails so, on no juror's verdict),
    wherever its message says so: a cascade puts its tier before the last tier's words. A judge
    reason that says it too keeps a failure failed, never makes one advisory."""
    if judge is not None and judge.unheard:
        return False
    return not (status == "failed" and f"{JUDGE_REQUIRED}: " in (message or ""))


CalibrationState = Literal["calibrated", "missing", "stale", "below-floor", "too-few-labels",
                           "unreadable", "untrusted", "shifted"]


class CalibrationNote(Model):
    """How far a judged verdict can be trusted: its judge's agreement with human labels
    (docs/calibration.md). `advisory` verdicts never fail a run unless --require-calibration."""

    state: CalibrationState
    """`calibrated`: the record matches the rubric and judges, has enough labels and its
    kappa clears the floor; otherwise why not (docs/calibration.md)."""
    advisory: bool
    """The judge is not calibrated and `--require-calibration` is off: its verdict does not
    decide the row (a pass stays `passed`, a fail becomes `deferred`); `verdict` keeps what it
    said."""
    record: str
    """The calibration record's path as the suite wrote it."""
    record_changed: bool = False
    """The record differs from the merge-base (`--evidence-base`): this pull request changed
    it, so the thresholds and figures this verdict rests on are the pull request's
    (`untrusted` when such evidence is not trusted: docs/cascade.md, "What is trusted")."""
    verdict: Literal["passed", "failed"] | None = None
    """What the judge said, kept when the row's status does not follow it (advisory)."""
    reason: str | None = None
    """Why the state is what it is, in one line."""
    labels: int | None = None
    """Human labels in the record; null when there is no readable record."""
    kappa: float | None = None
    """Cohen's kappa between the judge's verdicts and the human labels; null without a
    readable record."""
    kappa_ci95: Interval | None = None
    """The record's 95% bootstrap interval of kappa."""
    min_agreement_on: Literal["estimate", "lower_bound"] = "estimate"
    """`estimate`: `kappa` is held against `min_agreement`; `lower_bound`: the lower end of
    `kappa_ci95` is."""
    effective_jurors: float | None = None
    """A jury: what it is worth in independent jurors (docs/calibration.md)."""
    warnings: list[str] = Field(default_factory=list)
    """Near-duplicate jurors, from the record."""
    alpha: float | None = None
    """Krippendorff's alpha between the judge and the human labels; null without a readable
    record."""
    accuracy: float | None = None
    """Share of the labels the judge's verdict matched (0..1); null without a readable record."""
    false_pass_rate: float | None = None
    """Of the labels people failed, the share the judge passed (0..1); null without a
    readable record."""
    false_fail_rate: float | None = None
    """Of the labels people passed, the share the judge failed (0..1); null without a
    readable record."""
    min_agreement: float | None = None
    """The gate's floor for kappa (`min_agreement:`, default 0.8)."""
    errors: JudgeErrorCounts | None = None
    """The record's confusion counts, for the corrected rates (docs/statistics.md)."""
    max_false_fail: float | None = None
    """Above this false-fail rate a judged failure is gap `judge-calibration`
    (`max_false_fail:`, default 0.1)."""
