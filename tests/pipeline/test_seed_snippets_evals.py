"""The rubric-scoring document's snippets (003-01 … 003-15 of the index in seed_snippets.py), as
written there, through `mcptest eval` against the example server and the loopback judge: each
run with the verdicts the document's claim implies, and most with the verdicts that make the
claim's other side show (a failing gate, a deferral without a key)."""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline.seed_snippets import env_for, path_of, run
from support.cli_inproc import cli
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers and subprocesses

JUDGE = "judge-m"  # the default judge model of env_for (MCPTEST_JUDGE_MODEL)


def agent(js: JudgeServer, prompt: str, call: tuple[str, dict], final: str) -> None:
    """The live eval's agent (the default model): one tool call on the example server, then
    its answer. Judge requests carry "Rubric:", so scripts added later with it win for them."""
    js.script(JUDGE, [ToolCalls(call), Fault.text(final)], candidate=prompt)


def criterion(js: JudgeServer, name: str, verdict: Verdict, model: str = JUDGE) -> None:
    js.script(model, verdict, rubric=f'Criterion "{name}"')


def names(criteria: list[dict]) -> list[tuple[str, str]]:
    return [(c["name"], c["status"]) for c in criteria]


def test_003_01_a_live_free_form_eval_is_graded_and_defers_without_a_key(
        tmp_path: Path, js: JudgeServer) -> None:
    agent(js, "Summarize the latest deployment.",
          ("release_note", {"service": "billing", "tag": "v2.4.1"}),
          "Deployed billing v2.4.1 to production.")
    js.script(JUDGE, Verdict(score=0.75), rubric="Rubric:")
    r = run("eval", path_of("003-01"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    row = r.row("summary stays on topic")
    assert row["judge"]["score"] == 0.75 and row["judge"]["threshold"] == 0.7
    assert row["response"]["tool_calls"][0]["name"] == "release_note"
    keyless = run("eval", path_of("003-01"), tmp_path, env_for(None))
    assert keyless.code == ExitCode.OK and keyless.row()["status"] == "deferred"
    strict = run("eval", path_of("003-01"), tmp_path, env_for(None), "--require-judge")
    assert strict.code == ExitCode.TESTS_FAILED


def test_003_02_weights_normalize_the_average(tmp_path: Path, js: JudgeServer) -> None:
    agent(js, "Book a meeting with Alice", ("greet", {"name": "Alice"}),
          "Booked Tuesday 2pm with Alice; confirmed.")
    criterion(js, "booked the right day", Verdict(score=1.0))
    criterion(js, "confirmed to the user", Verdict(score=0.55))
    r = run("eval", path_of("003-02"), tmp_path, env_for(js))
    # (2 x 1.0 + 1 x 0.55) / 3 = 0.85 >= 0.8; the unweighted mean 0.775 would fail
    assert r.code == ExitCode.OK, r.stdout
    assert r.row()["judge"]["score"] == pytest.approx(0.85)
    assert names(r.row()["judge"]["criteria"]) == [
        ("booked the right day", "passed"), ("confirmed to the user", "failed")]


def test_003_03_the_tree_walks_yes_at_half_and_ends_at_a_leaf(
        tmp_path: Path, js: JudgeServer) -> None:
    agent(js, "What is the weather in Paris?", ("forecast", {"city": "Paris"}),
          "It looks fine in Paris.")
    js.script(JUDGE, Verdict(score=0.5), rubric="get_weather tool?")
    js.script(JUDGE, Verdict(score=0.3), rubric="state a temperature?")
    r = run("eval", path_of("003-03"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED  # leaf 0.4 < 0.7
    judge = r.row()["judge"]
    assert [(s["ask"], s["answer"]) for s in judge["path"]] == [
        ("Did the answer call the get_weather tool?", "yes"),
        ("Does the final reply state a temperature?", "no")]
    assert judge["score"] == 0.4
    assert "called the tool but gave no temperature" in r.stdout


def test_003_04_a_ref_takes_its_threshold_override_and_a_typo_is_a_load_error(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(score=0.85), rubric="Rubric:")
    r = run("eval", path_of("003-04"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED
    assert r.row("weather answer is good")["status"] == "passed"
    billing = r.row("strict billing answer")
    assert billing["status"] == "failed" and billing["judge"]["threshold"] == 0.9
    typo = tmp_path / "typo.yml"
    typo.write_text(path_of("003-04").read_text(encoding="utf-8").replace(
        "{ ref: helpful-and-grounded }", "{ ref: helpful-and-grounde }"), encoding="utf-8")
    v = cli("validate", typo, env=env_for(None))
    assert v.returncode == ExitCode.USAGE_ERROR
    assert f"{typo}:" in v.stderr and "helpful-and-grounde" in v.stderr, v.stderr


def test_003_05_required_must_hold_and_a_guard_must_not(tmp_path: Path,
                                                         js: JudgeServer) -> None:
    criterion(js, "correct total", Verdict(score=0.9))
    criterion(js, "leaks a card number", Verdict(score=0.0))
    r = run("eval", path_of("003-05"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    criterion(js, "leaks a card number", Verdict(score=0.8))  # the guard holds: fail
    guarded = run("eval", path_of("003-05"), tmp_path, env_for(js))
    assert guarded.code == ExitCode.TESTS_FAILED
    assert "leaks a card number" in guarded.row()["message"]
    criterion(js, "leaks a card number", Verdict(score=0.0))
    criterion(js, "correct total", Verdict(score=0.6))  # required below 0.7
    required = run("eval", path_of("003-05"), tmp_path, env_for(js))
    assert required.code == ExitCode.TESTS_FAILED
    assert "required `correct total`" in required.row()["message"]


def test_003_06_anchors_are_written_into_the_criterion_question(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(score=0.9), rubric="Rubric:")
    r = run("eval", path_of("003-06"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    (sent,) = [b["messages"][-1]["content"] for b in js.requests(JUDGE)]
    assert "Calibration examples" in sent
    assert 'Response: "2.3.0 added per-tenant rate limits." -> score 1.00' in sent
    assert 'Response: "2.3.0 rewrote the billing engine." -> score 0.00' in sent


def test_003_07_evidence_is_shown_and_an_invented_span_fails(
        tmp_path: Path, js: JudgeServer) -> None:
    criterion(js, "states the version", Verdict(score=0.9, evidence="2.3.0"))
    criterion(js, "states the change", Verdict(score=0.9, evidence="per-tenant rate limits"))
    r = run("eval", path_of("003-07"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    assert [c["evidence"] for c in r.row()["judge"]["criteria"]] == [
        "2.3.0", "per-tenant rate limits"]
    criterion(js, "states the change", Verdict(score=0.9, evidence="rewrote billing"))
    bad = run("eval", path_of("003-07"), tmp_path, env_for(js))
    assert bad.code == ExitCode.TESTS_FAILED
    assert bad.row()["judge"]["criteria"][1]["score"] == 0.0


def test_003_08_when_holds_and_the_criterion_threshold_gates(
        tmp_path: Path, js: JudgeServer) -> None:
    criterion(js, "apologizes on error", Verdict(score=0.85))
    r = run("eval", path_of("003-08"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED  # 0.85 passes the default 0.7, not its own 0.9
    assert "required `apologizes on error` scored 0.85 < 0.90" in r.row()["message"]
    criterion(js, "apologizes on error", Verdict(score=0.95))
    assert run("eval", path_of("003-08"), tmp_path, env_for(js)).code == ExitCode.OK
    assert js.count(JUDGE) == 2  # graded each time: the answer mentions an error


def test_003_09_the_worst_criterion_sets_the_score_shown_out_of_5(
        tmp_path: Path, js: JudgeServer) -> None:
    criterion(js, "accurate", Verdict(score=0.9))
    criterion(js, "complete", Verdict(score=0.75))
    r = run("eval", path_of("003-09"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    assert r.row()["judge"]["score"] == 0.75 and r.row()["judge"]["display_score"] == "4.0/5"
    assert "score 4.0/5" in r.stdout


def test_003_10_a_jury_of_three_passes_on_two(tmp_path: Path, js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", [Verdict(score=0.9), Verdict(score=0.3), Verdict(score=0.8)])
    r = run("eval", path_of("003-10"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    judge = r.row()["judge"]
    assert judge["score"] == pytest.approx((0.9 + 0.3 + 0.8) / 3)
    assert (judge["jury"]["passed_jurors"], judge["jury"]["decisive"]) == (2, 3)
    assert "projected judge calls: 3" in r.stdout  # size x one free-form question
    assert js.count("claude-sonnet-4-5") == 3
    js.script("claude-sonnet-4-5", [Verdict(score=0.9), Verdict(score=0.3), Verdict(score=0.2)])
    assert run("eval", path_of("003-10"), tmp_path, env_for(js)).code == ExitCode.TESTS_FAILED


def test_003_11_an_even_majority_split_breaks_to_fail(tmp_path: Path, js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", Verdict(score=0.9))
    js.script("claude-haiku-4-5", Verdict(score=0.5))
    r = run("eval", path_of("003-11"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED
    assert "tie_break fail" in r.row()["message"]
    assert r.row()["judge"]["score"] == pytest.approx(0.7)  # the panel mean
    js.script("claude-haiku-4-5", Verdict(score=0.8))
    assert run("eval", path_of("003-11"), tmp_path, env_for(js)).code == ExitCode.OK


def test_003_12_a_preset_with_an_appended_criterion(tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(score=0.85), rubric="Rubric:")
    r = run("eval", path_of("003-12"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    assert [c["name"] for c in r.row()["judge"]["criteria"]] == [
        "supported", "no fabrication", "brief"]
    assert r.row()["judge"]["threshold"] == 0.8
    js.script(JUDGE, Verdict(score=0.5), rubric='Criterion "brief"')  # mean 0.73: >= 0.7, < 0.8
    assert run("eval", path_of("003-12"), tmp_path, env_for(js)).code == ExitCode.TESTS_FAILED


def test_003_13_a_fixed_response_exits_0_on_pass_and_1_below_threshold(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script(JUDGE, Verdict(score=0.6))
    assert run("eval", path_of("003-13"), tmp_path, env_for(js)).code == ExitCode.OK
    js.script(JUDGE, Verdict(score=0.55))
    r = run("eval", path_of("003-13"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED and r.row()["status"] == "failed"


def test_003_14_a_live_agent_run_is_the_candidate(tmp_path: Path, js: JudgeServer) -> None:
    agent(js, "Book a meeting with Alice", ("greet", {"name": "Alice"}),
          "Booked Tuesday 2pm with Alice; confirmed.")
    js.script(JUDGE, Verdict(score=0.9), rubric="Rubric:")
    r = run("eval", path_of("003-14"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    response = r.row()["response"]
    assert response["tool_calls"][0]["name"] == "greet"
    assert response["final"] == "Booked Tuesday 2pm with Alice; confirmed."
    graded = [b["messages"][-1]["content"] for b in js.requests(JUDGE)
              if "Rubric:" in str(b["messages"])]
    assert len(graded) == 2 and all("Hello, Alice!" in g for g in graded)  # the tool result
    keyless = run("eval", path_of("003-14"), tmp_path, env_for(None))
    assert keyless.code == ExitCode.OK and keyless.row()["status"] == "deferred"


def test_003_15_a_two_by_two_matrix_is_four_rows(tmp_path: Path, js: JudgeServer) -> None:
    js.script("claude-sonnet-4-5", Verdict(score=0.9))
    js.script("claude-haiku-4-5", Verdict(score=0.5))
    r = run("eval", path_of("003-15"), tmp_path, env_for(js))
    assert r.code == ExitCode.TESTS_FAILED  # the haiku cells score below 0.7
    got = {t["name"]: t["status"] for t in r.report["tests"]}
    assert got == {f"summary quality [model={m}, prompt={p}]": s
                   for m, s in (("claude-sonnet-4-5", "passed"), ("claude-haiku-4-5", "failed"))
                   for p in (1, 2)}
    assert js.count() == 4
