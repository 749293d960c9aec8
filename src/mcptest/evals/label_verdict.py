"""A labeled eval (`judge: {verdict_kind: categorical, labels: […]}` over a free-form rubric):
each sample answers one label, the plurality of the samples decides, and passed is the label's
membership of `passing_labels`, unknown without it (docs/evals.md, "Verdict modes").

Deferral, budget and error rules are the decision's (`grade/decision.py`; docs/jury.md, "Partial
juries"); a tie is inconclusive (failed), as on an `llm-jury`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mcptest.llm.verdict_modes import VerdictMode

if TYPE_CHECKING:
    from mcptest.evals.sample import Sample
    from mcptest.grade.decision import Decision
    from mcptest.report.models import JuryAnalytics, Status
    from mcptest.suite.models import EvalJudge


def label_mode(judge: EvalJudge | None) -> VerdictMode | None:
    """The verdict mode of an eval's judges: labeled, or None (the rubric engine's scores)."""
    if judge is None or not judge.labels:
        return None
    return VerdictMode(kind="labeled", labels=tuple(judge.labels))


@dataclass
class LabelDecision:
    """The verdict of a labelling jury (a label, not a score) and how its jurors split."""

    status: Status
    message: str
    label: str | None = None
    passed: bool | None = None
    tally: dict[str, float] = field(default_factory=dict)
    analytics: JuryAnalytics | None = None


def decide_labels(done: list[Sample], judge: EvalJudge, require_judge: bool,
                  generator: str | None) -> LabelDecision:
    """The eval's status, message, label and passed from its samples' labels."""
    from mcptest.evals.settle import eval_rule, sample_ballots
    from mcptest.grade.decision import decide
    if all(s.state == "deferred" for s in done):
        if require_judge:
            return LabelDecision("failed", f"judge required but unavailable: {done[0].why}")
        return LabelDecision("deferred", f"deferred: {done[0].why}")
    rule = eval_rule("panel", None, judge, 0.5, require_judge)
    d = decide(sample_ballots(done, rule), rule)
    missing = [s for s in done if s.state == "deferred"]
    if d.outcome == "skipped":
        budget = next(s for s in done if s.state == "budget")
        why = budget.why if budget.why.startswith("budget") else f"budget: {budget.why}"
        return LabelDecision("skipped", why)
    if d.outcome == "required":
        return LabelDecision("failed", f"judge required but unavailable: {len(missing)} of "
                                       f"{len(done)} judge(s) deferred: {missing[0].why}")
    if d.outcome == "deferred":
        return LabelDecision("deferred", f"deferred: {len(missing)} judge(s) deferred and "
                                         f"their labels could change the outcome: "
                                         f"{missing[0].why}")
    note = f"; {len(missing)} deferred, no label of theirs could change it" if missing else ""
    if not d.decisive:
        return LabelDecision("error" if d.outcome == "error" else "failed",
                             f"no decisive sample: {done[0].why}")
    label = d.answer if isinstance(d.answer, str) else None
    passed, tally = d.passed, dict(d.tally)
    counts = ", ".join(f"{k} {v:g}" for k, v in sorted(tally.items(), key=lambda kv: -kv[1]))
    analytics = _analytics(d, done, generator)
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


def _analytics(d: Decision, done: list[Sample], generator: str | None
               ) -> JuryAnalytics | None:
    from mcptest.grade.jury import decision_analytics
    if len(done) < 2:
        return None
    base = decision_analytics(d, juror_models=[s.model or "(default)" for s in done],
                              generator_model=generator, quorum=0.5)
    return base.model_copy(update={"panel": True, "passed_fraction": None})
