"""What goes into and comes out of the judge engine (frozen pydantic models)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from mcptest.llm.retry import FailureKind
from mcptest.llm.verdict_modes import VerdictMode
from mcptest.readback.evidence import ChangedEvidence
from mcptest.suite.models import JudgeDefaults


class Frozen(BaseModel):
    # built on first use: a run builds only the contracts it uses, and those it uses once the
    # first answer is back (outcomes, stats) are built while it waits (run/warm.py)
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)


class JudgeOptions(Frozen):
    """Run-wide judge settings (the CLI fills them; nothing here reads os.environ)."""

    concurrency: int = Field(default=8, ge=1, le=512)
    per_model_concurrency: int | None = Field(default=None, ge=1, le=512)
    max_cost: float | None = Field(default=None, ge=0)
    cache_dir: Path | None = None
    """None disables the cache; the CLI passes `.mcptest/cache` unless --no-cache."""
    cache_reads: bool = True
    """False: every verdict is asked of the judge and only written to the cache. `calibrate`
    measures the judge and what it costs, so it never answers from a cached verdict (which
    costs nothing and may come from another judge configuration); runs after it are served."""
    require_judge: bool = False
    require_calibration: bool = False
    """Fail verdicts of uncalibrated judges instead of reporting them as advisory."""
    on_shift: Literal["escalate", "advisory"] = "escalate"
    """A calibrated cascade whose run does not look like its labels (`--on-shift`)."""
    timeout: float = Field(default=60.0, gt=0)
    env: dict[str, str] = Field(default_factory=dict, repr=False)
    defaults: JudgeDefaults | None = None
    max_tries: int = Field(default=4, ge=1, le=10)
    retry_base_delay: float = Field(default=0.5, ge=0)
    retry_max_total: float = Field(default=180.0, gt=0)
    secrets: tuple[str, ...] = Field(default=(), repr=False)
    """Known secret values of the run (`mcptest.llm.known_secrets`): kept out of the cache."""
    redact_candidates: bool = False
    """`--redact-candidates`: mask known secrets (and key-shaped tokens) in what judges see."""
    evidence: ChangedEvidence | None = None
    """`--evidence-base`: the calibration records this pull request changed."""


class JudgeRequest(Frozen):
    """One model, one rubric, one candidate, one repetition."""

    rubric: str
    candidate: Any = None
    model: str | None = None
    base_url: str | None = None
    repetition: int = Field(default=0, ge=0)
    defaults: JudgeDefaults | None = None
    """The suite's `judge:` block; overrides `JudgeOptions.defaults` for this call."""
    mode: VerdictMode | None = None
    """A jury's verdict mode (docs/jury.md, "Verdict modes"); None: score and pass."""
    reference: Any = None
    """The test's `reference:` (the expected answer), shown to the judge; None: none."""


OutcomeStatus = Literal["verdict", "abstained", "deferred", "budget_skipped", "judge_error"]


class JudgeOutcome(Frozen):
    """A verdict or a classified failure. `score` is None unless status is `verdict`."""

    status: OutcomeStatus
    model: str | None
    score: float | None = None
    judge_pass: bool | None = None
    """The judge's own `pass` field, informational: gating uses score ≥ threshold."""
    reason: str | None = None
    evidence: str | None = None
    message: str | None = None
    """Why there is no verdict (deferral, budget, error) — never contains a secret."""
    error_kind: FailureKind | Literal["unpriced"] | None = None
    cost_usd: float = 0.0
    cost_known: bool = True
    latency_ms: float | None = None
    cached: bool = False
    requests_sent: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    repetition: int = 0
    label: str | None = None
    """A labeled verdict's label (its `score` is None)."""
    value: float | None = None
    """A numeric verdict's score in the jury's `score_range` (`score` is it scaled to 0..1)."""

    @property
    def mechanical_failure(self) -> bool:
        """A failure a replacement juror may stand in for (never an abstention)."""
        return self.status == "judge_error"


class JudgeStats(Frozen):
    calls_sent: int
    """HTTP requests sent to judges (retries included, cache hits excluded)."""
    cache_hits: int
    spent_usd: float
    cap_usd: float | None
    reserved_usd: float
    budget_stopped: bool
    budget_refused: int
    deferred: int
    errors: int
    overruns: int
    """Requests whose real cost exceeded their reservation (kept honest, expected 0)."""
    beyond_usd: float = 0.0
    """What reports claimed past the cap's room: not counted as spent (`BudgetLedger`)."""
    projected_calls: int = 0
    """From the last `project()` call (0 when never projected)."""
    cost_bound_usd: float | None = None


class Projection(Frozen):
    """For the run header: how many judge calls may be made and what they can cost at most."""

    calls: int
    cost_bound_usd: float | None
    """None when some model has no known price (listed in `unpriced`)."""
    unpriced: list[str] = Field(default_factory=list)
    deferred: int = 0
    """Calls that will be deferred (no key, no gateway)."""
