"""The calibration record: what `mcptest calibrate` measured, bound to the judge it measured.

The binding is a hash of everything that changes a verdict: the rubric text, the threshold, the
judge models (with weights and the quorum for a jury) and the judge prompt's version. A record
whose hash no longer matches the suite is stale: the rubric or the judges changed after the
humans' labels were compared with them (docs/calibration.md).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mcptest.calibrate.cascade_record import CascadeCalibration
from mcptest.calibrate.correlation import ErrorCorrelation
from mcptest.calibrate.stats import Figures
from mcptest.errors import ReadBackError, ReportError
from mcptest.llm.prompt import PROMPT_VERSION
from mcptest.readback.files import decode_utf8, read_regular
from mcptest.readback.json_bounds import JsonLimits, check_json
from mcptest.report.base import Interval
from mcptest.suite.models import JudgeDefaults, LlmJudgeMatcher, LlmJudgeSpec, LlmJurySpec

if TYPE_CHECKING:
    from pathlib import Path

RECORD_VERSION = 1


class _Model(BaseModel):
    # built on first use: most runs read no record (docs/architecture.md, "Costs")
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


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


class _VerdictFlips(_Model):
    """Verdicts judged again on the labels, against the verdicts the record holds."""

    labels: int
    """Labels with a verdict both times (the pairs compared)."""
    flips: int
    """Of those, the labels whose verdict changed."""
    flip_rate: float
    to_pass: int
    """Flips from fail to pass (the rest went from pass to fail)."""
    p_value: float
    """Exact McNemar test (two-sided binomial on the flips) of no change in the pass rate."""
    stale: bool
    """Drifted (McNemar below its level, or too many flips): the record's verdicts are advisory
    until it is calibrated again."""
    reason: str


class TierDrift(_VerdictFlips):
    """One tier of an `escalate:` cascade judged again, against the verdicts its tier of the
    record holds (`cascade.tiers[].verdicts`); its level is shared over the cascade's tests."""

    tier: int
    """1-based, cheapest first."""


class DriftCheck(_VerdictFlips):
    """`mcptest calibrate --check-drift`: the labels judged again, against `verdicts`
    (docs/calibration.md, "Drift")."""

    checked_at: str
    versions_changed: list[str] = Field(default_factory=list)
    """Models whose provider now names another version than the record's, as `model: old → new`
    (a hint: the verdicts decide whether the record is stale)."""
    tiers: list[TierDrift] = Field(default_factory=list)
    """An `escalate:` cascade: each tier judged again on every label, against its own verdicts;
    the figures above are then the cascade's own verdict (the record's thresholds applied to
    the fresh tiers), and the record is stale when any of them drifted."""


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
    verdicts: dict[str, Literal["pass", "fail"]] | None = None
    """The judge's verdict on each label (by label id) it judged: what `--check-drift`
    compares a fresh judging with; None in records written before it was kept."""
    drift: DriftCheck | None = None
    """The last `--check-drift`; a stale one makes the record's verdicts advisory."""
    provider_versions: dict[str, list[str]] = Field(default_factory=dict)
    """Per judge model, the model version (and system fingerprint) its provider said served the
    calibration, where it says one: `--check-drift` tells when it changed."""


class RecordError(ReportError):
    """The record cannot be read; the gate reports it as `unreadable`."""


MAX_RECORD_BYTES = 16 << 20
RECORD_LIMITS = JsonLimits(max_depth=32, max_values=1_000_000)
_UNIT = frozenset({"threshold", "coverage", "agreement", "guaranteed_agreement", "accuracy",
                   "target_agreement", "risk", "risk_per_bound", "rate", "quorum", "flip_rate",
                   "p_value"})
"""Shares and probabilities: in [0, 1]."""
_SIGNED_UNIT = frozenset({"kappa", "alpha", "score_alpha", "panel_alpha", "correlation",
                          "kappa_below_floor", "low", "high"})
"""Agreement coefficients and their intervals: in [-1, 1]."""


def read_record(path: Path) -> CalibrationRecord:
    """The record in `path`, read as every committed file is (`mcptest.readback`: a regular
    file, bounded) and checked against what each number means; `FileNotFoundError` when there
    is none, `RecordError` naming the key otherwise."""
    if not os.path.lexists(path):
        raise FileNotFoundError(str(path))
    shown = str(path)
    try:
        raw = read_regular(path, shown, max_bytes=MAX_RECORD_BYTES, kind="a calibration record")
        check_json(raw, shown, RECORD_LIMITS)
        record = CalibrationRecord.model_validate_json(decode_utf8(raw, shown))
    except ReadBackError as e:
        raise RecordError(e.message if not e.path else f"{e.path}: {e.message}") from None
    except ValidationError as e:
        first = e.errors(include_url=False)[0]
        where = ".".join(str(x) for x in first["loc"])
        raise RecordError(f"{where}: {first['msg']}") from None
    problem = (_out_of_meaning(record.model_dump(mode="json"), "") or _tiers_problem(record)
               or _sizes_problem(record))
    if problem is not None:
        raise RecordError(problem)
    return record


def _out_of_meaning(node: Any, where: str) -> str | None:
    """The first number that cannot mean what its key says: a count below 0, a share outside
    [0, 1], a coefficient outside [-1, 1], a cost below 0, anything not finite."""
    if isinstance(node, dict):
        for key, value in node.items():
            at = f"{where}.{key}" if where else key
            if isinstance(value, int | float) and not isinstance(value, bool):
                low, high = ((0, 1) if key in _UNIT else (-1, 1) if key in _SIGNED_UNIT
                             else (0, math.inf))
                if not (math.isfinite(value) and low <= value <= high):
                    return f"{at}: {value!r} is not a possible {key} (from {low} to {high})"
            elif (found := _out_of_meaning(value, at)) is not None:
                return found
    elif isinstance(node, list):
        for i, item in enumerate(node):
            if (found := _out_of_meaning(item, f"{where}.{i}")) is not None:
                return found
    return None


def _tiers_problem(record: CalibrationRecord) -> str | None:
    """A cascade's thresholds are bound to its tiers: as many, with the same models, in order."""
    if record.cascade is None:
        return None
    want = [record.identity, *(record.identity.tiers or [])]
    got = record.cascade.tiers
    if len(got) != len(want) or any(
            t.tier != i + 1 or t.models != w.models or t.last != (i == len(want) - 1)
            for i, (t, w) in enumerate(zip(got, want, strict=False))):
        return ("cascade.tiers: the thresholds are not those of the judge's tiers "
                f"({len(got)} tier(s) listed, the judge has {len(want)})")
    return None


def _sizes_problem(record: CalibrationRecord) -> str | None:
    """What the record keeps per label cannot outnumber its labels, nor a drift check's flips
    its pairs; a cascade's drift names its tiers in order."""
    n = record.labels
    sized: list[tuple[str, int]] = [("verdicts", len(record.verdicts or {}))]
    for k, t in enumerate(record.cascade.tiers if record.cascade else []):
        sized += [(f"cascade.tiers.{k}.verdicts", len(t.verdicts or {})),
                  (f"cascade.tiers.{k}.confidences", len(t.confidences or []))]
    drift = record.drift
    if drift is not None:
        sized.append(("drift.labels", drift.labels))
        sized += [(f"drift.tiers.{k}.labels", t.labels) for k, t in enumerate(drift.tiers)]
        counts = [("drift", drift.labels, drift.flips, drift.to_pass)] + [
            (f"drift.tiers.{k}", t.labels, t.flips, t.to_pass) for k, t in enumerate(drift.tiers)]
        for where, pairs, flips, to_pass in counts:
            if not to_pass <= flips <= pairs:
                return (f"{where}: {to_pass} flip(s) to pass of {flips} flip(s) of {pairs} "
                        "pair(s) cannot be")
        tiers = len(record.cascade.tiers) if record.cascade else 0
        if drift.tiers and [t.tier for t in drift.tiers] != list(range(1, tiers + 1)):
            return f"drift.tiers: not the record's {tiers} cascade tier(s) in order"
    for where, size in sized:
        if size > n:
            return f"{where}: {size} entries, more than the record's {n} labels"
    return None


def write_record(record: CalibrationRecord, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(record.model_dump_json(indent=2) + "\n", encoding="utf-8")
