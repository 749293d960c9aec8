"""An `llm-jury` with a `verdict_kind`: plurality of labels (or pass/fail), or the mean or
median of numeric scores, instead of the quorum (docs/jury.md, "Verdict modes").

Seating, replacements and repetitions are `llm_matchers`'; this module reads the seated jury.
Each juror's repetitions are reduced first (plurality, or `aggregate`), then the panel decides
with the same rule. A labeled jury without `passing_labels` records its label and leaves passed
unknown: the assertion is `skipped` with a message starting "unknown", so the run exits 4 and
never passes CI as a pass (docs/decisions.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from mcptest.grade.aggregate import central, mode_partial, plurality, reduce_repetitions, vote
from mcptest.grade.agreement import confidence_band
from mcptest.grade.agreement_nominal import label_agreement
from mcptest.grade.jury import jury_analytics
from mcptest.grade.rows import assertion_result
from mcptest.llm.contracts import JudgeOutcome
from mcptest.llm.verdict_modes import VerdictMode
from mcptest.report.models import AssertionResult, JudgeDetail, JudgeVote, Status
from mcptest.suite.models import Juror, LlmJurySpec
from mcptest.suite.models.verdict_kind import numeric_range

if TYPE_CHECKING:
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion

Answer = str | float
Heads = Sequence[tuple[float, Answer]]


class SeatLike(Protocol):
    juror: Juror
    outcomes: list[JudgeOutcome]
    replacement_for: str | None
    history: list[tuple[JudgeOutcome, str | None]]


def verdict_mode(spec: LlmJurySpec) -> VerdictMode | None:
    """What each juror is asked to return; None for the quorum rule."""
    if spec.verdict_kind is None:
        return None
    if spec.verdict_kind == "numeric":
        low, high = numeric_range(spec.score_range)
        return VerdictMode(kind="numeric", low=low, high=high)
    if spec.labels:
        return VerdictMode(kind="labeled", labels=tuple(spec.labels))
    return VerdictMode(kind="boolean")


def _answer(o: JudgeOutcome, mode: VerdictMode) -> Answer | None:
    if o.status != "verdict":
        return None
    if mode.kind == "labeled":
        return o.label
    if mode.kind == "numeric":
        return o.value
    return None if o.judge_pass is None else ("pass" if o.judge_pass else "fail")


def _passes(answer: Answer | None, spec: LlmJurySpec) -> bool | None:
    """Whether one answer (a juror's or the panel's) passes; None: unknown."""
    if answer is None:
        return None
    if isinstance(answer, float | int) and not isinstance(answer, bool):
        return answer >= spec.threshold
    if spec.labels is None:
        return answer == "pass"
    return None if spec.passing_labels is None else answer in spec.passing_labels


def _decide(heads: Heads, spec: LlmJurySpec) -> tuple[Answer | None, bool | None]:
    if spec.verdict_kind == "numeric":
        c = central([(w, float(a)) for w, a in heads], spec.aggregate or "mean")
        return c, _passes(c, spec)
    winner, _ = plurality([(w, str(a)) for w, a in heads])
    return winner, _passes(winner, spec)


def _deciding(heads: Heads, spec: LlmJurySpec) -> object:
    """What of the panel's answer decides the status: pass or fail, or the label itself when
    there are no `passing_labels` (the label is then the verdict)."""
    answer, passed = _decide(heads, spec)
    if spec.verdict_kind != "numeric" and spec.labels and spec.passing_labels is None:
        return answer
    return passed is True


def _vote(o: JudgeOutcome, spec: LlmJurySpec, mode: VerdictMode,
          replacement_for: str | None) -> JudgeVote:
    answer = _answer(o, mode)
    v = vote(o, _passes(answer, spec), replacement_for)
    label = o.label if mode.kind != "boolean" else answer  # `pass` / `fail` as answered
    return v.model_copy(update={"label": label, "value": o.value,
                                "passed": _passes(answer, spec)})


def _show(answer: Answer | None) -> str:
    if answer is None:
        return "none"
    return f"{answer:g}" if isinstance(answer, float) else str(answer)


def mode_jury(planned: PlannedAssertion, spec: LlmJurySpec, seats: list[SeatLike],
              generator: str | None, engine: JudgeEngine, start: float) -> AssertionResult:
    """The assertion of a jury decided by its verdict mode; never raises for judge trouble."""
    mode = verdict_mode(spec)
    assert mode is not None
    how = spec.aggregate or "mean"
    outcomes = [o for s in seats for o, _ in s.history] + [o for s in seats for o in s.outcomes]
    votes = [_vote(o, spec, mode, rf) for s in seats for o, rf in s.history] + [
        _vote(o, spec, mode, s.replacement_for) for s in seats for o in s.outcomes]
    own = [reduce_repetitions([a for o in s.outcomes if (a := _answer(o, mode)) is not None],
                              how) for s in seats]
    heads: list[tuple[float, Answer]] = [(s.juror.weight, a) for s, a in zip(seats, own,
                                                                            strict=True)
                                         if a is not None]
    answer, passed = _decide(heads, spec)
    tally: dict[str, float] = {}
    if mode.kind != "numeric":
        tally = plurality([(w, str(a)) for w, a in heads])[1]
    score = None
    if mode.kind == "numeric" and isinstance(answer, float):
        score = (answer - mode.low) / (mode.high - mode.low)

    def result(status: Status, message: str, analytics: Any = None) -> AssertionResult:
        detail = JudgeDetail(
            kind="llm-jury", rubric=spec.rubric, score=score,
            display_score=None if score is None else _show(answer),
            threshold=spec.threshold if mode.kind == "numeric" else None, votes=votes,
            jury=analytics, verdict_kind=mode.kind,
            verdict=None if answer is None else _show(answer), passed=passed,
            aggregate=how if mode.kind == "numeric" else "plurality", tally=tally)
        return assertion_result(planned, status, message=message, start=start, judge=detail,
                                cost_usd=sum(o.cost_usd for o in outcomes),
                                cached=bool(outcomes) and all(o.cached for o in outcomes))

    budget = next((o for o in outcomes if o.status == "budget_skipped"), None)
    if budget is not None:
        msg = budget.message or "refused"
        return result("skipped", msg if msg.startswith("budget") else f"budget: {msg}")
    missing = [s for s in seats if not any(o.status == "verdict" for o in s.outcomes)
               and any(o.status == "deferred" for o in s.outcomes)]
    note = ""
    if missing:
        why = next(o.message for s in missing for o in s.outcomes if o.status == "deferred")
        if engine.options.require_judge:
            return result("failed", f"judge required but unavailable: {len(missing)} of "
                                    f"{len(seats)} juror(s) deferred: {why}")
        space: list[Answer] = ([mode.low, mode.high] if mode.kind == "numeric"
                               else list(mode.labels) or ["pass", "fail"])
        if not heads or not mode_partial(heads, [s.juror.weight for s in missing],
                                         lambda h: _deciding(h, spec), space):
            return result("deferred", f"deferred: {len(missing)} juror(s) deferred and their "
                                      f"answers could change the verdict: {why}")
        note = f"; {len(missing)} juror(s) deferred; no answer of theirs could change it"
    errors = [o for o in outcomes if o.status == "judge_error"]
    if not heads and errors and not any(o.status == "abstained" for o in outcomes):
        return result("error", f"every juror failed mechanically; last: judge error "
                               f"({errors[-1].model}): {errors[-1].message}")
    need = spec.min_jurors or 1
    analytics = _analytics(seats, mode, heads, spec, generator, answer, passed)
    if len(heads) < need:
        return result("failed", f"inconclusive: {len(heads)} decisive juror(s), need {need}",
                      analytics.model_copy(update={"verdict": "inconclusive"}))
    if errors:
        note += f"; {len(errors)} judge error(s)"
    if mode.kind == "numeric":
        assert isinstance(answer, float)
        values = ", ".join(_show(a) for _, a in heads)
        cmp = "≥" if passed else "<"
        return result("passed" if passed else "failed",
                      f"panel {how} {answer:g} {cmp} threshold {spec.threshold:g} "
                      f"(jurors: {values}){note}", analytics)
    counts = ", ".join(f"{k} {v:g}" for k, v in sorted(tally.items(), key=lambda kv: -kv[1]))
    if answer is None:
        top = max(tally.values())
        tied = " and ".join(f"`{k}`" for k, v in tally.items() if v == top)
        return result("failed", f"inconclusive: tie between {tied} ({counts}){note}",
                      analytics)
    if passed is None:
        return result("skipped", f"unknown: plurality label `{answer}` ({counts}); no "
                                 f"`passing_labels`, so passed is unknown{note}", analytics)
    if mode.kind == "boolean":
        return result("passed" if passed else "failed", f"plurality {answer} ({counts}){note}",
                      analytics)
    which = "a passing label" if passed else (
        f"not a passing label ({', '.join(spec.passing_labels or [])})")
    return result("passed" if passed else "failed",
                  f"plurality label `{answer}` is {which} ({counts}){note}", analytics)


def _analytics(seats: list[SeatLike], mode: VerdictMode, heads: Heads, spec: LlmJurySpec,
               generator: str | None, answer: Answer | None, passed: bool | None) -> Any:
    """The jury analytics of docs/jury.md; labels get the nominal alpha, scores the interval."""
    verdict = ("inconclusive" if answer is None else
               "unknown" if passed is None else "passed" if passed else "failed")
    scores = [[o.score if o.status == "verdict" else None for o in s.outcomes] for s in seats]
    passed_n = sum(1 for _, a in heads if _passes(a, spec))
    analytics = jury_analytics(
        scores if mode.kind != "labeled" else [[None] for _ in seats],
        juror_models=[s.juror.model for s in seats], generator_model=generator, quorum=0.5,
        passed_jurors=passed_n, decisive=len(heads), verdict=verdict)
    analytics = analytics.model_copy(update={"panel": True, "passed_fraction": None})
    if mode.kind != "labeled" or len(heads) < 2:
        return analytics
    labels = [[o.label if o.status == "verdict" else None for o in s.outcomes] for s in seats]
    agreement, raw, units = label_agreement(labels, len(mode.labels))
    band = confidence_band(raw)
    return analytics.model_copy(update={
        "agreement": agreement, "agreement_raw": raw, "units": units, "confidence": band,
        "escalate": band == "low",
        "bias_warning": analytics.bias_warning if band == "low" else None})

