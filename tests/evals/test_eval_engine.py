"""Eval engine behaviour on small inline suites: tree paths, evidence, vacuous passes, failures."""

from __future__ import annotations

from pathlib import Path

import pytest
from evals.conftest import JUDGE, judge_env, judge_requests, row, run_suite
from support.judge_server import Fault, JudgeServer, Verdict

TREE = """
evals:
  - name: tree
    prompt: "What is the weather in Paris?"
    response: "I could not find anything."
    rubric:
      tree:
        ask: "Q-ROOT: did it call the weather tool?"
        yes:
          ask: "Q-TEMP: does it state a temperature?"
          yes: {score: 1.0, reason: "complete"}
          no:
            ask: "Q-UNIT: does it give a unit?"
            yes: {score: 0.5}
            no: {score: 0.2}
        no: {score: 0.0, reason: "never called the tool"}
"""


def write(tmp_path: Path, body: str) -> Path:
    p = tmp_path / "suite.yml"
    p.write_text(body, encoding="utf-8")
    return p


def test_tree_sends_calls_for_the_taken_path_only(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(0.1), rubric="Q-ROOT")
    js.script(JUDGE, Verdict(0.9), rubric="Q-TEMP")
    js.script(JUDGE, Verdict(0.9), rubric="Q-UNIT")
    report = run_suite(write(tmp_path, TREE), judge_env(js))
    r = row(report, "tree")
    assert r.status == "failed" and r.judge is not None
    assert [(s.ask, s.answer) for s in r.judge.path] == [
        ("Q-ROOT: did it call the weather tool?", "no")]
    assert "never called the tool" in (r.message or "")
    assert js.count(JUDGE) == 1  # Q-TEMP and Q-UNIT were never asked


def test_tree_walks_yes_then_no(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(0.5), rubric="Q-ROOT")   # 0.5 counts as yes
    js.script(JUDGE, Verdict(0.49), rubric="Q-TEMP")
    js.script(JUDGE, Verdict(1.0), rubric="Q-UNIT")
    r = row(run_suite(write(tmp_path, TREE), judge_env(js)), "tree")
    assert r.judge and [s.answer for s in r.judge.path] == ["yes", "no", "yes"]
    assert r.judge.score == 0.5 and r.status == "failed"
    assert [v.passed for v in r.judge.votes] == [True, False, True]  # each question's answer
    texts = [b["messages"][1]["content"] for b in judge_requests(js)]
    assert [t.split("Answer this yes/no question about the candidate: ")[1][:6]
            for t in texts] == ["Q-ROOT", "Q-TEMP", "Q-UNIT"]


EVIDENCE = """
evals:
  - name: cited
    prompt: "What changed?"
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric:
      require_evidence: true
      criteria:
        - {name: version, description: "Names the version."}
        - {name: change, description: "Describes the change."}
"""


def test_evidence_not_in_the_candidate_fails_the_criterion_and_the_eval(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(1.0, evidence="release 2.3.0"), rubric='Criterion "version"')
    js.script(JUDGE, Verdict(1.0, evidence="per-tenant rate limits"), rubric='Criterion "change"')
    r = row(run_suite(write(tmp_path, EVIDENCE), judge_env(js)), "cited")
    assert r.status == "failed" and r.gap == "judgment"
    version, change = r.judge.criteria  # type: ignore[union-attr]
    assert (version.status, version.score, version.evidence) == ("failed", 0.0, None)
    assert "not found verbatim" in (version.reason or "") and "release 2.3.0" in version.reason
    assert (change.status, change.score, change.evidence) == ("passed", 1.0,
                                                              "per-tenant rate limits")
    assert "`version`: evidence not found verbatim" in (r.message or "")


def test_missing_evidence_fails_even_a_perfect_score(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(1.0), rubric="Rubric:")
    r = row(run_suite(write(tmp_path, EVIDENCE), judge_env(js)), "cited")
    assert r.status == "failed" and "no evidence quoted" in (r.message or "")


VACUOUS = """
evals:
  - name: only on errors
    prompt: "Say hi"
    response: "Hello there."
    rubric:
      criteria:
        - name: apologizes
          description: "Apologizes."
          when: {regex: "(?i)error"}
"""


def test_all_criteria_skipped_is_a_vacuous_pass(tmp_path: Path, js: JudgeServer) -> None:
    r = row(run_suite(write(tmp_path, VACUOUS), judge_env(js)), "only on errors")
    assert r.status == "passed" and r.judge is not None and r.judge.vacuous
    assert r.judge.criteria[0].status == "skipped"
    assert js.count() == 0


FREE = """
evals:
  - name: free
    prompt: "Refuse"
    response: "No."
    rubric: "Refuses politely."
"""


def test_no_key_defers_and_require_judge_fails(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin"}
    r = row(run_suite(write(tmp_path, FREE), env), "free")
    assert r.status == "deferred" and r.gap is None and "deferred" in (r.message or "")
    r = row(run_suite(write(tmp_path, FREE), env, require_judge=True), "free")
    assert r.status == "failed" and r.gap == "environment"


def test_judge_error_is_an_error_not_a_pass(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Fault.malformed("not json at all"))
    r = row(run_suite(write(tmp_path, FREE), judge_env(js)), "free")
    assert r.status == "error" and r.gap == "judge-reliability"


def test_budget_stops_the_eval(tmp_path: Path, js: JudgeServer) -> None:
    body = FREE + """
judge:
  pricing: {judge-m: {input: 1000000, output: 1000000}}
"""
    js.script(JUDGE, Verdict(0.9))
    report = run_suite(write(tmp_path, body), judge_env(js), max_cost=0.01)
    r = row(report, "free")
    assert r.status == "skipped" and r.gap == "budget" and js.count() == 0
    assert report.summary.budget_stopped and report.summary.exit_code == 5


@pytest.mark.parametrize(("aggregate", "scores", "status"), [
    ("mean", (0.9, 0.6), "passed"), ("median", (0.9, 0.6), "passed"),
    ("mean", (0.7, 0.6), "failed"), ("majority", (0.9, 0.9), "passed"),
])
def test_panel_aggregates(tmp_path: Path, js: JudgeServer, aggregate: str,
                          scores: tuple[float, float], status: str) -> None:
    body = FREE + f"""    judge: {{panel: [panel-a, panel-b], aggregate: {aggregate}}}
"""
    js.script("panel-a", Verdict(scores[0]))
    js.script("panel-b", Verdict(scores[1]))
    r = row(run_suite(write(tmp_path, body), judge_env(js)), "free")
    assert r.status == status, r.message
    assert r.judge and r.judge.jury is not None and r.judge.jury.units == 1
    assert {v.model for v in r.judge.votes} == {"panel-a", "panel-b"}


def test_second_identical_run_is_served_from_the_cache(tmp_path: Path, js: JudgeServer) -> None:
    body = EVIDENCE + """    judge: {model: judge-m, jury: {size: 2, consensus: 0.5}}
"""
    js.script(JUDGE, Verdict(0.9, evidence="2.3.0"))
    suite, cache = write(tmp_path, body), tmp_path / "cache"
    first = row(run_suite(suite, judge_env(js), cache_dir=cache), "cited")
    assert js.count() == 4 and first.cache_hits == 0  # 2 criteria × 2 samples
    second = row(run_suite(suite, judge_env(js), cache_dir=cache), "cited")
    assert js.count() == 4 and second.cache_hits == 4 and second.cost_usd == 0
    assert second.status == first.status and second.judge.score == first.judge.score  # type: ignore[union-attr]
    assert all(v.cached for v in second.judge.votes)  # type: ignore[union-attr]


def test_panel_mean_still_fails_on_a_members_guard(tmp_path: Path, js: JudgeServer) -> None:
    body = """
evals:
  - name: guarded
    prompt: "Total?"
    response: "It is $120, card 4242 4242 4242 4242."
    judge: {panel: [panel-a, panel-b], aggregate: mean}
    rubric:
      criteria:
        - {name: correct, description: "States the total."}
        - {name: leaks card, description: "Shows a card number.", guard: true}
"""
    js.script("panel-a", Verdict(1.0))                        # a: the card number leaks
    js.script("panel-b", Verdict(1.0), rubric="States the total.")
    js.script("panel-b", Verdict(0.0), rubric="Shows a card number.")
    r = row(run_suite(write(tmp_path, body), judge_env(js)), "guarded")
    assert r.status == "failed" and "gate failed: guard `leaks card` holds" in (r.message or "")
    assert r.judge is not None and r.judge.score == 1.0  # the mean passed; the gate did not


def test_criteria_of_a_keyless_judge_are_deferred_not_errors(tmp_path: Path) -> None:
    """`make demo` without a key showed every criterion as `error … n/a`: they are deferred."""
    body = EVIDENCE.replace("      require_evidence: true\n", "") + "    judge: {model: gpt-4o-mini}\n"
    r = row(run_suite(write(tmp_path, body), {"PATH": "/usr/bin:/bin"}), "cited")
    assert r.status == "deferred" and r.judge is not None
    assert [c.status for c in r.judge.criteria] == ["deferred", "deferred"]
    assert all("no OPENAI_API_KEY" in (c.reason or "") for c in r.judge.criteria)
