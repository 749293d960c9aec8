"""A labeled eval (`judge: {verdict_kind: categorical, labels: […]}` over a free-form rubric):
each sample answers one label, the plurality of the samples decides, and passed is the label's
membership of `passing_labels`, unknown without it (docs/evals.md, "Verdict modes").

Deferral, budget and error rules are those of `verdict` (docs/jury.md, "Partial juries"); a
tie is inconclusive (failed), as on an `llm-jury`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mcptest.evals.sample import Sample
from mcptest.grade.aggregate import mode_partial, plurality
from mcptest.grade.agreement import confidence_band
from mcptest.grade.agreement_nominal import label_agreement
from mcptest.grade.jury import jury_analytics
from mcptest.llm.verdict_modes import VerdictMode
from mcptest.report.models import JuryAnalytics, Status
from mcptest.suite.models import EvalJudge


def label_mode(judge: EvalJudge | None) -> VerdictMode | None:
    """The verdict mode of an eval's judges: labeled, or None (the rubric engine's scores)."""
    if judge is None or not judge.labels:
        return None
    return VerdictMode(kind="labeled", labels=tuple(judge.labels))


@dataclass
class LabelDecision:
    status: Status
    message: str
    label: str | None = None
    passed: bool | None = None
    tally: dict[str, float] = field(default_factory=dict)
    analytics: JuryAnalytics | None = None


def _passes(label: str | None, judge: EvalJudge) -> bool | None:
    if label is None or judge.passing_labels is None:
        return None
    return label in judge.passing_labels


def _deciding(heads: Sequence[tuple[float, str | float]], judge: EvalJudge) -> object:
    """Pass or fail, or the label itself without `passing_labels` (then it is the verdict)."""
    label = plurality([(w, str(a)) for w, a in heads])[0]
    return label if judge.passing_labels is None else _passes(label, judge) is True


def decide_labels(done: list[Sample], judge: EvalJudge, require_judge: bool,
                  generator: str | None) -> LabelDecision:
    """The eval's status, message, label and passed from its samples' labels."""
    if all(s.state == "deferred" for s in done):
        if require_judge:
            return LabelDecision("failed", f"judge required but unavailable: {done[0].why}")
        return LabelDecision("deferred", f"deferred: {done[0].why}")
    budget = next((s for s in done if s.state == "budget"), None)
    if budget is not None:
        why = budget.why if budget.why.startswith("budget") else f"budget: {budget.why}"
        return LabelDecision("skipped", why)
    heads = [(1.0, s.label) for s in done if s.state == "scored" and s.label is not None]
    missing = [s for s in done if s.state == "deferred"]
    note = ""
    if missing:
        if require_judge:
            return LabelDecision("failed", f"judge required but unavailable: {len(missing)} of "
                                           f"{len(done)} judge(s) deferred: {missing[0].why}")
        if not heads or not mode_partial(heads, [1.0] * len(missing),
                                         lambda h: _deciding(h, judge),
                                         list(judge.labels or [])):
            return LabelDecision("deferred", f"deferred: {len(missing)} judge(s) deferred and "
                                             f"their labels could change the outcome: "
                                             f"{missing[0].why}")
        note = f"; {len(missing)} deferred, no label of theirs could change it"
    if not heads:
        errors = [s for s in done if s.state == "error"]
        return LabelDecision("error" if errors else "failed",
                             f"no decisive sample: {done[0].why}")
    label, tally = plurality([(w, str(a)) for w, a in heads])
    passed = _passes(label, judge)
    counts = ", ".join(f"{k} {v:g}" for k, v in sorted(tally.items(), key=lambda kv: -kv[1]))
    analytics = _analytics(done, judge, generator, len(heads), label, passed)
    if label is None:
        return LabelDecision("failed", f"inconclusive: tie ({counts}){note}", None, None, tally,
                             analytics)
    if passed is None:
        return LabelDecision("skipped", f"unknown: plurality label `{label}` ({counts}); no "
                                        f"`passing_labels`, so passed is unknown{note}",
                             label, None, tally, analytics)
    which = "a passing label" if passed else "not a passing label"
    return LabelDecision("passed" if passed else "failed",
                         f"plurality label `{label}` is {which} ({counts}){note}", label, passed,
                         tally, analytics)


def _analytics(done: list[Sample], judge: EvalJudge, generator: str | None, decisive: int,
               label: str | None, passed: bool | None) -> JuryAnalytics | None:
    if len(done) < 2:
        return None
    verdict = ("inconclusive" if label is None else "unknown" if passed is None
               else "passed" if passed else "failed")
    passed_n = sum(1 for s in done if s.state == "scored" and _passes(s.label, judge))
    base = jury_analytics([[None] for _ in done], juror_models=[s.model or "(default)"
                                                               for s in done],
                          generator_model=generator, quorum=0.5, passed_jurors=passed_n,
                          decisive=decisive, verdict=verdict)
    agreement, raw, units = label_agreement(
        [[s.label if s.state == "scored" else None] for s in done], len(judge.labels or []))
    band = confidence_band(raw)
    return base.model_copy(update={
        "panel": True, "passed_fraction": None, "agreement": agreement, "agreement_raw": raw,
        "units": units, "confidence": band, "escalate": band == "low",
        "bias_warning": base.bias_warning if band == "low" else None})
