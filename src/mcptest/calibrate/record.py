"""The calibration record: what `mcptest calibrate` measured, bound to the judge it measured.

The binding is a hash of everything that changes a verdict: the rubric text, the threshold, the
judge models (with weights and the quorum for a jury) and the judge prompt's version. A record
whose hash no longer matches the suite is stale: the rubric or the judges changed after the
humans' labels were compared with them (docs/calibration.md).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mcptest.calibrate.cascade_record import CascadeCalibration
from mcptest.calibrate.correlation import ErrorCorrelation
from mcptest.calibrate.stats import Figures
from mcptest.errors import ReportError
from mcptest.llm.prompt import PROMPT_VERSION
from mcptest.report.base import Interval
from mcptest.suite.models import JudgeDefaults, LlmJudgeMatcher, LlmJudgeSpec, LlmJurySpec

RECORD_VERSION = 1


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class JudgeIdentity(_Model):
    """Everything about a judge that changes its verdicts."""

    kind: Literal["llm-judge", "llm-jury", "eval"]
    rubric: str
    threshold: float
    models: list[str]
    """`model` or `model*weight` per juror, in order; `(default)` when the route decides."""
    quorum: float | None = None
    repetitions: int = 1
    prompt_version: str = PROMPT_VERSION
    tiers: list[JudgeIdentity] | None = None
    """An escalation cascade's tiers after the first, cheapest first (docs/cascade.md)."""

    @property
    def hash(self) -> str:
        data = self.model_dump(mode="json")
        if data.get("tiers") is None:  # a judge without tiers keeps the hash it always had
            data.pop("tiers", None)
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
        return "sha256:" + hashlib.sha256(text.encode()).hexdigest()


def identity_of(spec: LlmJudgeSpec | LlmJurySpec, defaults: JudgeDefaults | None
                ) -> JudgeIdentity:
    if isinstance(spec, LlmJudgeSpec):
        model = spec.model or (defaults.model if defaults else None) or "(default)"
        tiers = [identity_of(t.llm_judge if isinstance(t, LlmJudgeMatcher) else t.llm_jury,
                             defaults) for t in spec.escalate] if spec.escalate else None
        return JudgeIdentity(kind="llm-judge", rubric=spec.rubric, threshold=spec.threshold,
                             models=[model], tiers=tiers)
    return JudgeIdentity(kind="llm-jury", rubric=spec.rubric, threshold=spec.threshold,
                         models=[j.model if j.weight == 1.0 else f"{j.model}*{j.weight:g}"
                                 for j in spec.jurors],
                         quorum=spec.quorum, repetitions=spec.repetitions)


class Disagreement(_Model):
    label: str
    """The label's `id`, else its 1-based position in the labels file."""
    candidate: str
    human: str
    judge: Literal["pass", "fail"]
    score: float | None = None
    reason: str | None = None
    by: str | None = None


class CalibrationRecord(_Model):
    """`calibration/v1`: one judge's agreement with one set of human labels."""

    version: int = RECORD_VERSION
    identity: JudgeIdentity
    identity_hash: str
    labels_file: str
    created_at: str
    labels: int
    """Labels in the file."""
    unjudged: int = 0
    """Labels the judge gave no verdict on (error, budget, deferred)."""
    verdict: Figures
    """The verdict that gates a run: the lone judge's, or the jury's."""
    jurors: dict[str, Figures] = Field(default_factory=dict)
    """Per juror of a jury, keyed by model."""
    panel_alpha: float | None = None
    """Alpha of the pass/fail verdicts with the humans and every juror as coders."""
    panel_alpha_ci95: Interval | None = None
    error_correlation: list[ErrorCorrelation] = Field(default_factory=list)
    """Per pair of jurors: how their errors against the human labels go together."""
    effective_jurors: float | None = None
    """n / (1 + (n − 1)·ρ̄): what the jury is worth in independent jurors."""
    warnings: list[str] = Field(default_factory=list)
    """Near-duplicate jurors (docs/calibration.md)."""
    lowers_agreement: list[str] = Field(default_factory=list)
    """Jurors without whom the jury's kappa with the humans would be higher."""
    disagreements: list[Disagreement] = Field(default_factory=list)
    cascade: CascadeCalibration | None = None
    """An escalation cascade's thresholds and guarantee (`--target-agreement`, docs/cascade.md);
    `verdict` above is then the cascade's own."""


class RecordError(ReportError):
    """The record cannot be read; the gate reports it as `unreadable`."""


def read_record(path: Path) -> CalibrationRecord:
    try:
        return CalibrationRecord.model_validate_json(path.read_bytes())
    except OSError as e:
        raise FileNotFoundError(str(path)) from e
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first["loc"])
        raise RecordError(f"{where}: {first['msg']}") from None


def write_record(record: CalibrationRecord, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
