"""Calibrating an escalation cascade: every tier on every label, then each tier's threshold
(docs/cascade.md, "Calibrating a cascade").

Each tier runs exactly as a run would run it (`grade.escalation` over the one model client), on
every label, so that every tier can be calibrated on the labels the tiers before it leave: what
the thresholds are chosen on is what runs. The record's `verdict` figures are the cascade's own
verdict with the chosen thresholds, its `jurors` each tier alone.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import anyio

from mcptest.calibrate.cascade import TierOutput, TierSpec, calibrate_cascade
from mcptest.calibrate.measure import label_verdicts, shown_candidate
from mcptest.calibrate.record import CalibrationRecord, Disagreement
from mcptest.calibrate.stats import figures
from mcptest.grade.escalation import tier_models, tier_verdict, tiers_of
from mcptest.grade.jury_seats import LlmContext
from mcptest.grade.llm_matchers import grade_tier
from mcptest.suite.models import LlmJudgeMatcher, LlmJudgeSpec

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.calibrate.labels import Label
    from mcptest.calibrate.target import Target
    from mcptest.llm.engine import JudgeEngine


def cascade_spec(target: Target) -> LlmJudgeSpec | None:
    """The `llm-judge` with `escalate:` a target calibrates, if it is one."""
    m = target.planned.assertion.matcher if target.planned is not None else None
    if isinstance(m, LlmJudgeMatcher) and m.llm_judge.escalate:
        return m.llm_judge
    return None


async def judge_tiers(target: Target, labels: Sequence[Label], engine: JudgeEngine
                      ) -> list[list[TierOutput]]:
    """Every tier's output on every label: `out[t][i]` is tier t on label i."""
    spec = cascade_spec(target)
    assert spec is not None and target.planned is not None
    planned, tiers = target.planned, tiers_of(spec)
    ctx = LlmContext.of(target.test)
    out: list[list[TierOutput]] = [[TierOutput(None)] * len(labels) for _ in tiers]

    async def one(t: int, i: int) -> None:
        r = await grade_tier(planned, tiers[t], labels[i].candidate, ctx, engine)
        passed, _, confidence = tier_verdict(r)
        out[t][i] = TierOutput(passed, confidence, r.cost_usd)

    async with anyio.create_task_group() as tg:
        for t in range(len(tiers)):
            for i in range(len(labels)):
                tg.start_soon(one, t, i)
    return out


def build_cascade_record(target: Target, labels: Sequence[Label],
                         outputs: Sequence[Sequence[TierOutput]], labels_file: str,
                         agreement: float, risk: float) -> CalibrationRecord:
    spec = cascade_spec(target)
    assert spec is not None
    defaults = target.test.suite.suite.judge
    default = defaults.model if defaults else None
    tiers = tiers_of(spec)
    specs = [TierSpec("llm-judge" if isinstance(t, LlmJudgeSpec) else "llm-jury",
                      tier_models(t, default)) for t in tiers]
    human = [label.passed(target.identity.threshold) for label in labels]
    cascade, decided = calibrate_cascade(human, outputs, specs, agreement, risk)
    verdicts = [None if d is None else d[1] for d in decided]
    cascade = cascade.model_copy(update={"tiers": [  # what --check-drift compares with
        t.model_copy(update={"verdicts": label_verdicts(labels, [o.passed for o in out])})
        for t, out in zip(cascade.tiers, outputs, strict=True)]})
    names = [f"tier {k + 1}: {', '.join(s.models)}" for k, s in enumerate(specs)]
    return CalibrationRecord(
        identity=target.identity, identity_hash=target.identity.hash, labels_file=labels_file,
        created_at=datetime.now(UTC).isoformat(timespec="seconds"), labels=len(labels),
        unjudged=sum(1 for v in verdicts if v is None), verdict=figures(human, verdicts),
        jurors={name: figures(human, [o.passed for o in out])
                for name, out in zip(names, outputs, strict=True)},
        cascade=cascade, verdicts=label_verdicts(labels, verdicts),
        disagreements=[
            Disagreement(label=label.id or str(i + 1), candidate=shown_candidate(label.candidate),
                         human=str(label.human), judge="pass" if d[1] else "fail",
                         reason=f"decided by tier {d[0] + 1}", by=label.by)
            for i, (label, d) in enumerate(zip(labels, decided, strict=True))
            if d is not None and d[1] != human[i]])
