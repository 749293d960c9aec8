"""llm-judge and llm-jury grading through litellm over HTTP to the loopback judge server."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.grade.llm_matchers import LlmContext, judge_assertion, jury_assertion
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import PlannedAssertion
from mcptest.report.models import AssertionResult, Location
from mcptest.suite.models import Assertion, JudgeDefaults, LlmJudgeMatcher, Pricing

pytestmark = pytest.mark.anyio
TARGET = "result.content[0].text"
CTX = LlmContext()
LOC = Location(file="s.yml", line=7)


async def grade_llm(index: int, assertion: Assertion, candidate: Any, ctx: LlmContext,
                    engine: JudgeEngine) -> AssertionResult:
    """One judged assertion at `s.yml:7`, graded by the grader its matcher kind has."""
    planned = PlannedAssertion(index, assertion, LOC)
    grade = judge_assertion if isinstance(assertion.matcher, LlmJudgeMatcher) else jury_assertion
    return await grade(planned, candidate, ctx, engine)


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


def engine(js: JudgeServer, **kw: Any) -> JudgeEngine:
    kw.setdefault("env", js.gateway_env())
    kw.setdefault("retry_base_delay", 0.01)
    return JudgeEngine(JudgeOptions(**kw))


def jury(models: list[str], **kw: Any) -> Assertion:
    spec = {"rubric": "Reads as a deployment note.", "jurors": [{"model": m} for m in models],
            **kw}
    return Assertion.model_validate({"target": TARGET, "matcher": {"llm-jury": spec}})


def judge(**kw: Any) -> Assertion:
    spec = {"rubric": "Reads as a deployment note.", **kw}
    return Assertion.model_validate({"target": TARGET, "matcher": {"llm-judge": spec},
                                     "message": "should be a note"})


async def run_jury(js: JudgeServer, scores: list[float | None], quorum: float,
                   **kw: Any) -> AssertionResult:
    models = [f"juror-{i}" for i in range(len(scores))]
    for m, s in zip(models, scores, strict=True):
        js.script(m, Verdict(score=s) if s is not None else Verdict(score=None, abstain=True))
    return await grade_llm(2, jury(models, quorum=quorum, **kw), "deploy api v1.2", CTX,
                           engine(js))


@pytest.mark.parametrize(("scores", "quorum", "status", "fraction"), [
    ([0.9, 0.9, 0.1], 0.67, "passed", 0.67),     # [pass, pass, fail]: 2/3 meets 0.67
    ([0.9, 0.1, 0.1], 0.67, "failed", 0.33),     # [pass, fail, fail]: 1/3 does not
    ([0.9, 0.9, 0.1, 0.1], 0.5, "passed", 0.5),  # 2 of 4 meets 0.5
    ([0.9, 0.9, 0.1, 0.1], 0.6, "failed", 0.5),  # ... and fails 0.6
    ([0.9, 0.9, 0.9, 0.1], 1.0, "failed", 0.75),  # unanimous: one dissent fails
    ([0.9, 0.9, 0.9], 1.0, "passed", 1.0),
])
async def test_seed_worked_examples(js: JudgeServer, scores: list[float], quorum: float,
                                    status: str, fraction: float) -> None:
    r = await run_jury(js, scores, quorum)
    assert r.status == status
    assert r.judge is not None and r.judge.jury is not None
    a = r.judge.jury
    assert a.passed_fraction == fraction and a.decisive == len(scores) and a.quorum == quorum
    assert a.verdict == status
    assert [v.passed for v in r.judge.votes] == [s >= 0.7 for s in scores]
    assert r.index == 2 and r.matcher == "llm-jury" and r.location == LOC


async def test_abstention_is_excluded_and_never_replaced(js: JudgeServer) -> None:
    js.script("spare", Verdict(score=0.1))
    r = await run_jury(js, [0.9, None, 0.1], 0.5, replacements=[{"model": "spare"}])
    assert r.status == "passed"  # 1 of 2 decisive = 0.5
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.decisive == 2 and js.count("spare") == 0
    assert [v.abstained for v in r.judge.votes] == [False, True, False]


async def test_min_jurors_makes_it_inconclusive(js: JudgeServer) -> None:
    r = await run_jury(js, [0.9, None, None], 0.5, min_jurors=2)
    assert r.status == "failed" and (r.message or "").startswith("inconclusive")
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.verdict == "inconclusive"


@pytest.mark.parametrize("fault", [Fault.server_error(500), Fault.slow(3.0)])
async def test_failed_juror_is_replaced(js: JudgeServer, fault: Fault) -> None:
    js.script("juror-a", Verdict(score=0.9))
    js.script("juror-b", fault)
    js.script("juror-c", Verdict(score=0.2))
    js.script("spare", Verdict(score=0.8))
    a = jury(["juror-a", "juror-b", "juror-c"], quorum=0.67, replacements=[{"model": "spare"}])
    r = await grade_llm(0, a, "text", CTX, engine(js, timeout=0.3))
    assert r.status == "passed"  # a and the stand-in pass, c fails: 2/3
    assert js.count("juror-b") == 4 and js.count("spare") == 1
    assert r.judge is not None and r.judge.jury is not None
    failed = [v for v in r.judge.votes if v.model == "juror-b"]
    stand_in = [v for v in r.judge.votes if v.model == "spare"]
    assert failed[0].error and failed[0].score is None
    assert stand_in[0].replacement_for == "juror-b" and stand_in[0].score == 0.8
    assert r.judge.jury.decisive == 3


async def test_every_juror_failing_is_an_error(js: JudgeServer) -> None:
    js.script("juror-a", Fault.malformed())
    js.script("juror-b", Fault.server_error(503))
    r = await grade_llm(0, jury(["juror-a", "juror-b"]), "text", CTX, engine(js, max_tries=2))
    assert r.status == "error" and "failed mechanically" in (r.message or "")


async def test_repetitions_take_each_jurors_median(js: JudgeServer) -> None:
    js.script("juror-a", [Verdict(score=0.2), Verdict(score=0.9), Verdict(score=0.8)])
    js.script("juror-b", Verdict(score=0.75))
    r = await grade_llm(0, jury(["juror-a", "juror-b"], repetitions=3, quorum=1.0), "text", CTX,
                        engine(js))
    assert js.count("juror-a") == 3 and js.count("juror-b") == 3
    assert r.judge is not None and r.judge.jury is not None
    assert r.status == "passed"  # median 0.8 and 0.75 both clear 0.7
    assert sorted(v.repetition for v in r.judge.votes if v.model == "juror-a") == [0, 1, 2]
    assert r.judge.jury.units == 3


async def test_same_family_with_a_generator(js: JudgeServer) -> None:
    js.script("openai/gpt-4o-mini", Verdict(score=0.9))
    js.script("anthropic/claude-haiku-4-5", Verdict(score=0.1))
    ctx = LlmContext(generator_model="openai/gpt-4o")
    r = await grade_llm(0, jury(["openai/gpt-4o-mini", "anthropic/claude-haiku-4-5"]), "t",
                        ctx, engine(js))
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.same_family and r.judge.jury.bias_warning
    assert {v.family for v in r.judge.votes} == {"openai", "anthropic"}


async def test_llm_judge_reports_score_threshold_model_cost_latency_reason(
        js: JudgeServer) -> None:
    js.script("judge-x", Verdict(score=0.72, reason="names the tag", prompt_tokens=100,
                                 completion_tokens=10))
    defaults = JudgeDefaults(model="judge-x", pricing={"judge-x": Pricing(input=1, output=1)})
    ctx = LlmContext(defaults=defaults)
    r = await grade_llm(1, judge(threshold=0.7), "deploy api v1.2", ctx, engine(js))
    assert r.status == "passed" and r.user_message == "should be a note"
    assert r.judge is not None and r.judge.kind == "llm-judge"
    assert (r.judge.score, r.judge.threshold) == (0.72, 0.7)
    vote = r.judge.votes[0]
    assert vote.model == "judge-x" and vote.reason == "names the tag" and vote.latency_ms
    assert r.cost_usd == pytest.approx(110e-6) and vote.cost_usd == r.cost_usd
    js.script("judge-x", Verdict(score=0.69, reason="vague"))
    r2 = await grade_llm(1, judge(threshold=0.7), "other", ctx, engine(js))
    assert r2.status == "failed" and "0.69 < threshold 0.70" in (r2.message or "")


async def test_lone_judge_abstaining_fails_as_inconclusive(js: JudgeServer) -> None:
    js.script("j", Fault.refusal())
    r = await grade_llm(0, judge(model="j"), "t", CTX, engine(js))
    assert r.status == "failed" and "abstained" in (r.message or "")


async def test_judge_error_maps_to_error(js: JudgeServer) -> None:
    js.script("j", Fault.malformed())
    r = await grade_llm(0, judge(model="j"), "t", CTX, engine(js))
    assert r.status == "error" and "unparseable" in (r.message or "")


async def test_no_key_defers_unless_required(js: JudgeServer) -> None:
    a = jury(["gpt-4o", "claude-sonnet-4-5"])
    r = await grade_llm(0, a, "t", CTX, engine(js, env={}))
    assert r.status == "deferred" and "deferred" in (r.message or "")
    r2 = await grade_llm(0, judge(), "t", CTX, engine(js, env={}))
    assert r2.status == "deferred"
    strict = engine(js, env={}, require_judge=True)
    assert (await grade_llm(0, a, "t", CTX, strict)).status == "failed"
    assert (await grade_llm(0, judge(), "t", CTX, strict)).status == "failed"
    assert js.count() == 0


async def test_budget_refusal_is_a_skip(js: JudgeServer) -> None:
    js.script("j", Verdict())
    defaults = JudgeDefaults(pricing={"j": Pricing(input=100, output=100)})
    ctx = LlmContext(defaults=defaults)
    r = await grade_llm(0, judge(model="j"), "t", ctx, engine(js, max_cost=0.0001))
    assert r.status == "skipped" and (r.message or "").startswith("budget: ")
    rj = await grade_llm(0, jury(["j", "j"]), "t", ctx, engine(js, max_cost=0.0001))
    assert rj.status == "skipped" and (rj.message or "").startswith("budget: ")
    assert js.count() == 0


async def test_second_run_from_cache_costs_nothing(js: JudgeServer, tmp_path: Any) -> None:
    js.script("juror-a", Verdict(score=0.9, prompt_tokens=50, completion_tokens=5))
    js.script("juror-b", Verdict(score=0.8, prompt_tokens=50, completion_tokens=5))
    defaults = JudgeDefaults(pricing={m: Pricing(input=1, output=1)
                                      for m in ("juror-a", "juror-b")})
    ctx = LlmContext(defaults=defaults)
    a = jury(["juror-a", "juror-b"], repetitions=2)
    first = await grade_llm(0, a, "t", ctx, engine(js, cache_dir=tmp_path))
    assert first.cost_usd > 0 and not first.cached and js.count() == 4
    second = await grade_llm(0, a, "t", ctx, engine(js, cache_dir=tmp_path))
    assert js.count() == 4 and second.cached and second.cost_usd == 0
    assert second.status == first.status == "passed"
    assert second.judge is not None and all(v.cached for v in second.judge.votes)


async def test_juror_weights_count_in_the_quorum(js: JudgeServer) -> None:
    js.script("heavy", Verdict(score=0.9))
    js.script("light-1", Verdict(score=0.1))
    js.script("light-2", Verdict(score=0.1))
    spec = {"rubric": "r", "quorum": 0.5, "jurors": [
        {"model": "heavy", "weight": 2}, {"model": "light-1"}, {"model": "light-2"}]}
    a = Assertion.model_validate({"target": TARGET, "matcher": {"llm-jury": spec}})
    r = await grade_llm(0, a, "t", CTX, engine(js))
    assert r.status == "passed"  # weight 2 of 4 = 0.5 (by heads it would be 1/3)
    assert r.judge is not None and r.judge.jury is not None
    assert r.judge.jury.passed_fraction == 0.5 and r.judge.jury.passed_jurors == 1


async def test_an_unreachable_juror_is_not_decisive(js: JudgeServer) -> None:
    js.script("juror-a", Verdict(score=0.9))
    spec = {"rubric": "r", "jurors": [{"model": "juror-a", "base_url": js.base_url},
                                      {"model": "gpt-4o"}]}
    a = Assertion.model_validate({"target": TARGET, "matcher": {"llm-jury": spec}})
    r = await grade_llm(0, a, "t", CTX, engine(js, env={}))
    assert r.status == "passed"
    assert r.judge is not None and r.judge.jury is not None and r.judge.jury.decisive == 1
    assert "deferred" in (r.judge.votes[1].error or "")
