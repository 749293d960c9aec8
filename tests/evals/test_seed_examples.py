"""Every YAML example of the rubric-scoring seed document runs against the loopback judge server
with the verdict its scripted scores imply; the projection equals the judge calls really made."""

from __future__ import annotations

import pytest
from evals.conftest import DATA, JUDGE, judge_env, judge_requests, row, run_suite
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.judging.plan_projection import project
from mcptest.plan import build_plan
from mcptest.suite.load import load_suites

SEED = DATA / "seed.yml"


def projected(env: dict[str, str], filter: str | None) -> int:
    plan = build_plan(load_suites([SEED], env=env), filter=filter, tools=False, evals=True)
    return project(plan, env)[0].calls


def script_agents(js: JudgeServer) -> None:
    js.script(JUDGE, [ToolCalls(("release_note", {"service": "billing", "tag": "v2.4.1"})),
                      Fault.text("Deployed billing v2.4.1 to production.")],
              candidate="Summarize the latest deployment.")
    js.script(JUDGE, [ToolCalls(("greet", {"name": "Alice"})),
                      Fault.text("Booked Tuesday 2pm with Alice; confirmed.")],
              candidate="Book a meeting with Alice")
    js.script(JUDGE, [ToolCalls(("forecast", {"city": "Paris"})),
                      Fault.text("Paris: 18C and clear.")],
              candidate="What is the weather in Paris?")


@pytest.mark.slow
def test_seed_examples_single_judge(js: JudgeServer) -> None:
    script_agents(js)
    js.script(JUDGE, Verdict(0.9), rubric="Rubric:")  # every judge question not scripted below
    js.script(JUDGE, Verdict(0.8), rubric='Criterion "grounded"', candidate="Invoice 42")
    js.script(JUDGE, Verdict(0.0), rubric='Criterion "leaks a card number"')
    js.script(JUDGE, Verdict(0.9, evidence="2.3.0"), rubric='Criterion "states the version"')
    js.script(JUDGE, Verdict(0.9, evidence="added per-tenant  rate limits"),
              rubric='Criterion "states the change"')
    js.script(JUDGE, Verdict(0.85), rubric='Criterion "apologizes on error"')
    js.script(JUDGE, Verdict(0.6), rubric='Criterion "complete"')
    js.script(JUDGE, Verdict(1.0), rubric="get_weather tool?")
    js.script(JUDGE, Verdict(1.0), rubric="state a temperature?")
    env = judge_env(js)
    only = "re:^(?!subjective|summary quality)[^/]*$"  # names only: ids hold a path
    report = run_suite(SEED, env, filter=only)

    failing = {"strict billing answer", "error responses must apologize",
               "answer quality, worst-criterion on a 1-5 scale"}
    got = {t.name: t.status for t in report.tests}
    assert got == {name: ("failed" if name in failing else "passed") for name in got}
    assert len(got) == 13

    billing = row(report, "strict billing answer")
    assert billing.judge and billing.judge.score == pytest.approx(0.85)
    assert billing.judge.threshold == 0.9 and billing.gap == "judgment"
    apology = row(report, "error responses must apologize")
    assert "required `apologizes on error` scored 0.85 < 0.90" in (apology.message or "")
    worst = row(report, "answer quality, worst-criterion on a 1-5 scale")
    assert worst.judge and worst.judge.score == pytest.approx(0.6)
    assert worst.judge.display_score == "3.4/5"
    guard = row(report, "safe and grounded").judge
    assert guard and [(c.name, c.guard, c.status) for c in guard.criteria] == [
        ("correct total", False, "passed"), ("leaks a card number", True, "passed")]
    cited = row(report, "grounded answer with citations").judge
    assert cited and [c.evidence for c in cited.criteria] == [
        "2.3.0", "added per-tenant  rate limits"]
    anchors = [b for b in judge_requests(js) if 'Criterion \\"grounded\\"' in str(b)
               or 'Criterion "grounded"' in b["messages"][1]["content"]]
    assert any('Response: "2.3.0 rewrote the billing engine." -> score 0.00'
               in b["messages"][1]["content"] for b in anchors)
    tree = row(report, "weather answered")
    assert tree.judge and [(s.ask, s.answer) for s in tree.judge.path] == [
        ("Did the answer call the get_weather tool?", "yes"),
        ("Does the final reply state a temperature?", "yes")]
    live = row(report, "booking quality")
    assert live.response["tool_calls"][0]["name"] == "greet"
    assert live.response["final"].startswith("Booked Tuesday")
    preset = [c.name for c in row(report, "grounded and brief").judge.criteria]  # type: ignore[union-attr]
    assert preset == ["supported", "no fabrication", "brief"]

    assert len(judge_requests(js)) == projected(env, only) == report.summary.judge_calls


def test_seed_jury(js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", [Verdict(0.9), Verdict(0.3), Verdict(0.8)])
    env = judge_env(js)
    report = run_suite(SEED, env, filter="juried")
    r = row(report, "subjective call, juried")
    assert r.status == "passed", r.message  # 2 of 3 samples pass, consensus 0.66
    assert r.judge and r.judge.score == pytest.approx((0.9 + 0.3 + 0.8) / 3)
    assert r.judge.jury is not None and r.judge.jury.passed_jurors == 2
    assert sorted(v.repetition for v in r.judge.votes) == [0, 1, 2]
    assert js.count("claude-sonnet-4-5") == 3 == projected(env, "juried")


def test_seed_jury_without_consensus_fails(js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", [Verdict(0.9), Verdict(0.3), Verdict(0.2)])
    report = run_suite(SEED, judge_env(js), filter="juried")
    assert row(report, "subjective call, juried").status == "failed"


def test_seed_panel_even_split_breaks_to_fail(js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", Verdict(0.9))
    js.script("claude-haiku-4-5", Verdict(0.5))
    env = judge_env(js)
    report = run_suite(SEED, env, filter="ensemble")
    r = row(report, "subjective call, ensemble")
    assert r.status == "failed" and "tie_break fail" in (r.message or "")
    assert r.judge and r.judge.score == pytest.approx(0.7)  # the panel mean is what is shown
    assert r.judge.jury is not None and r.judge.jury.decisive == 2
    assert js.count("claude-sonnet-4-5") == js.count("claude-haiku-4-5") == 1
    assert projected(env, "ensemble") == 2


def test_seed_matrix_two_by_two(js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", Verdict(0.9))
    js.script("claude-haiku-4-5", Verdict(0.5))
    env = judge_env(js)
    report = run_suite(SEED, env, filter="summary quality")
    rows = {t.name: (t.status, t.cell, t.id) for t in report.tests}
    base = "summary quality"
    assert set(rows) == {f"{base} [model={m}, prompt={p}]"
                         for m in ("claude-sonnet-4-5", "claude-haiku-4-5") for p in (1, 2)}
    for name, (status, cell, test_id) in rows.items():
        assert cell is not None and cell["model"] in name
        assert cell["prompt"] == ("Summarize the release in one sentence." if name[-2] == "2"
                                  else "Summarize the release.")
        assert status == ("passed" if "sonnet" in name else "failed")
        assert test_id.endswith(f"[model={cell['model']}, prompt={name[-2]}]")
    one_sentence = [b for b in js.requests() if "in one sentence" in b["messages"][1]["content"]]
    assert len(one_sentence) == 2
    assert js.count() == 4 == projected(env, "summary quality")
