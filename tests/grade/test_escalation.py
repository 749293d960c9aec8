"""An `llm-judge` with `escalate:` through litellm's OpenAI route to the loopback judge server:
which tier decides and why, what runs, and what the budget holds (docs/cascade.md)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.grade.escalation import Thresholds, grade_cascade
from mcptest.grade.jury_seats import LlmContext
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import PlannedAssertion
from mcptest.report.models import AssertionResult, Location
from mcptest.suite.models import Assertion, JudgeDefaults, LlmJudgeMatcher, Pricing

pytestmark = pytest.mark.anyio
JURORS = ["juror-a", "juror-b", "juror-c"]
PRICED = JudgeDefaults(max_tokens=200, pricing={
    "cheap": Pricing(input=0.1, output=0.4), **{j: Pricing(input=3, output=15) for j in JURORS}})
CALIBRATED = Thresholds(values=(0.5,), calibrated=True, target=0.9, guaranteed=0.91,
                        last_cost=0.004)


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


def cascade(**kw: Any) -> PlannedAssertion:
    spec = {"rubric": "Reads as a deployment note.", "model": "cheap",
            "calibration": {"file": "c.json"},
            "escalate": [{"llm-jury": {"jurors": [{"model": m} for m in JURORS],
                                       "quorum": 0.5}}], **kw}
    a = Assertion.model_validate({"target": "result", "matcher": {"llm-judge": spec}})
    return PlannedAssertion(0, a, Location(file="s.yml", line=3))


async def grade(js: JudgeServer, th: Thresholds, *, cheap: Any, jurors: list[float],
                **options: Any) -> tuple[AssertionResult, JudgeEngine]:
    js.script("cheap", cheap)
    for m, s in zip(JURORS, jurors, strict=True):
        js.script(m, Verdict(score=s))
    engine = JudgeEngine(JudgeOptions(env=js.gateway_env(), retry_base_delay=0.01,
                                      defaults=PRICED, **options))
    planned = cascade()
    m = planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    r = await grade_cascade(planned, m.llm_judge, "deployed api v1.2", LlmContext(defaults=PRICED),
                            engine, th)
    return r, engine


async def test_a_sure_cheap_judge_decides_and_the_jury_is_never_asked(js: JudgeServer) -> None:
    r, _ = await grade(js, CALIBRATED, cheap=Verdict(score=0.95), jurors=[0.1, 0.1, 0.1])
    assert r.status == "passed"
    assert js.count("cheap") == 1 and all(js.count(j) == 0 for j in JURORS)
    e = r.judge.escalation if r.judge else None
    assert e is not None and e.decided_by == 1 and e.calibrated
    first, jury = e.tiers
    assert first.decided and first.confidence == pytest.approx(0.25 / 0.3)
    assert first.reason == "confidence 0.83 ≥ 0.50: its verdict stands"
    assert not jury.ran and not jury.decided
    assert e.last_tier_cost_usd == 0.004  # the record's figure: the jury did not run
    assert e.guaranteed_agreement == 0.91
    assert (r.message or "").startswith("tier 1 of 2 (llm-judge cheap): confidence 0.83")
    assert r.judge is not None and r.judge.kind == "llm-judge" and r.judge.score == 0.95
    assert r.cost_usd > 0


async def test_an_unsure_cheap_judge_escalates_to_the_jury(js: JudgeServer) -> None:
    r, _ = await grade(js, CALIBRATED, cheap=Verdict(score=0.75), jurors=[0.1, 0.2, 0.9])
    assert r.status == "failed"  # the jury's 1 of 3 at quorum 0.5, not the cheap pass
    assert js.count("cheap") == 1 and all(js.count(j) == 1 for j in JURORS)
    e = r.judge.escalation if r.judge else None
    assert e is not None and e.decided_by == 2
    first, jury = e.tiers
    assert first.verdict == "passed" and not first.decided
    assert first.reason == "confidence 0.17 < 0.50: escalated"
    assert jury.decided and jury.verdict == "failed" and jury.reason == "the last tier decides"
    assert jury.score == 0.33 and jury.confidence == pytest.approx((0.5 - 0.33) / 0.5)
    assert r.judge is not None and r.judge.kind == "llm-jury"
    assert r.cost_usd == pytest.approx(first.cost_usd + jury.cost_usd)
    assert e.last_tier_cost_usd == jury.cost_usd
    assert "tier 2 of 2 (llm-jury juror-a, juror-b, juror-c): the last tier decides; 1/3" in (
        r.message or "")


@pytest.mark.parametrize("fault", [Fault.malformed(), Verdict(score=None, abstain=True)])
async def test_a_tier_without_a_verdict_escalates(js: JudgeServer, fault: Any) -> None:
    r, _ = await grade(js, CALIBRATED, cheap=fault, jurors=[0.9, 0.9, 0.9])
    assert r.status == "passed"
    e = r.judge.escalation if r.judge else None
    assert e is not None and e.decided_by == 2
    assert e.tiers[0].verdict is None and "escalated" in e.tiers[0].reason
    assert e.tiers[0].reason.startswith("no verdict (")


async def test_without_a_record_only_the_last_tier_runs(js: JudgeServer) -> None:
    r, _ = await grade(js, Thresholds(why="no calibration record"), cheap=Verdict(score=0.95),
                       jurors=[0.9, 0.9, 0.1])
    assert r.status == "passed" and js.count("cheap") == 0
    e = r.judge.escalation if r.judge else None
    assert e is not None and e.decided_by == 2 and not e.calibrated
    assert e.tiers[0].reason == ("not run: uncalibrated (no calibration record), so only the "
                                 "last tier decides")
    assert e.guaranteed_agreement is None


async def test_a_tier_the_record_never_trusts_is_not_run(js: JudgeServer) -> None:
    never = Thresholds(values=(None,), calibrated=True, notes=("it disagrees too often", None))
    r, _ = await grade(js, never, cheap=Verdict(score=0.95), jurors=[0.9, 0.9, 0.1])
    assert js.count("cheap") == 0 and r.status == "passed"
    e = r.judge.escalation if r.judge else None
    assert e is not None
    assert e.tiers[0].reason == ("not run: the record has no threshold for it (it disagrees "
                                 "too often)")


async def test_the_worst_case_of_every_tier_is_held_and_released(js: JudgeServer) -> None:
    """Under a cap the cascade holds every tier's worst case before the first runs; when the
    cheap judge decides, the jury's share is released and only what was spent stays."""
    r, engine = await grade(js, CALIBRATED, cheap=Verdict(score=0.95), jurors=[0.9] * 3,
                            max_cost=1.0)
    stats = engine.stats()
    assert r.status == "passed" and stats.reserved_usd == 0.0 and stats.overruns == 0
    assert stats.spent_usd == pytest.approx(r.cost_usd)
    planned = cascade()
    m = planned.assertion.matcher
    assert isinstance(m, LlmJudgeMatcher)
    from mcptest.grade.escalation import requests, tiers_of

    ctx = LlmContext(defaults=PRICED)
    worst = sum(engine.worst_case(q) for t in tiers_of(m.llm_judge)
                for q in requests(t, "deployed api v1.2", ctx))
    assert worst > 10 * r.cost_usd  # the jury's worst case dwarfs one cheap verdict
    js.reset_counts()
    # a cap that fits the cheap judge but not every tier: nothing is sent at all
    r2, engine2 = await grade(js, CALIBRATED, cheap=Verdict(score=0.95), jurors=[0.9] * 3,
                              max_cost=worst * 0.9)
    assert r2.status == "skipped" and js.count() == 0
    assert (r2.message or "").startswith("budget: the cascade's worst case")
    assert engine2.stats().spent_usd == 0.0 and engine2.stats().reserved_usd == 0.0


def _plan(tmp_path: Any, text: str) -> Any:
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    (tmp_path / "s.yml").write_text(text, encoding="utf-8")
    return build_plan(load_suites([tmp_path / "s.yml"], env={}), tools=True, evals=True,
                      agents=True)


SUITE = """
servers: {{ s: {{ command: [python3, x.py] }} }}
calibration: {{ file: c.json }}
tools:
  - name: t
    server: s
    tool: x
    expect:
      - target: result
        matcher:
          llm-judge:
            rubric: Fine.
            model: gpt-4o-mini
            escalate:
              - llm-judge: {{ model: {middle} }}
              - llm-jury: {{ jurors: [{{model: gpt-4o}}, {{model: gpt-4.1}}], repetitions: 2, temperature: 0.5 }}
"""


def test_the_projection_counts_every_tier(tmp_path: Any) -> None:
    """The run header's bound is the cascade's worst case: 1 + 1 + 2 jurors × 2 repetitions."""
    from mcptest.judging.plan_projection import plan_calls

    calls = plan_calls(_plan(tmp_path, SUITE.format(middle="gpt-4.1-mini")))
    assert [c.model for c in calls] == ["gpt-4o-mini", "gpt-4.1-mini", "gpt-4o", "gpt-4.1",
                                        "gpt-4o", "gpt-4.1"]


def test_a_tier_model_is_checked_like_any_judge(tmp_path: Any) -> None:
    from mcptest.judging.model_checks import model_errors

    plan = _plan(tmp_path, SUITE.format(middle="llama-3.3-70b"))
    errors = model_errors(plan, {"OPENAI_API_KEY": "sk-x"})
    assert [e.key_path for e in errors] == [
        "tools[0].expect[0].matcher.llm-judge.escalate[0].llm-judge.model"]
