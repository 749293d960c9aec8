"""Verdicts that rest on no less than they claim (docs/jury.md "Partial juries", docs/evals.md):
each case runs the CLI against the loopback judge server, as a user would."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def jury_suite(tmp_path: Path, js: JudgeServer, reachable: list[str], unreachable: list[str],
               extra: str = "") -> Path:
    """A tool test with one jury: `reachable` jurors go to the loopback judge, the others name
    a provider whose key the run does not have."""
    jurors = [{"model": m, "base_url": js.base_url} for m in reachable] + [
        {"model": m} for m in unreachable]
    path = tmp_path / "jury.yml"
    path.write_text(HEAD + f"""tools:
  - name: note reads well
    server: ex
    tool: release_note
    args: {{service: billing, tag: v1.2.3}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury: {{rubric: "Reads as a deployment note.", jurors: {json.dumps(jurors)}{extra}}}
""", encoding="utf-8")
    return path


# ------------------------------------------------------------------------- 1. partial juries

def test_a_unanimous_jury_missing_two_jurors_is_deferred_not_passed(
        tmp_path: Path, js: JudgeServer) -> None:
    """The issue's probe: quorum 1.0, three jurors, two without a key. The one vote present
    cannot settle a unanimous jury (the missing two could dissent)."""
    js.script("juror-a", Verdict(score=0.9))
    path = jury_suite(tmp_path, js, ["juror-a"], ["gpt-4o", "claude-sonnet-4-5"],
                      ", quorum: 1.0")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.OK, r.stderr  # a deferral does not fail the run without --require
    a = rep["tests"][0]["assertions"][0]
    assert a["status"] == "deferred" and rep["tests"][0]["status"] == "deferred"
    assert "2 juror(s) deferred and their votes could change the verdict" in a["message"]
    votes = a["judge"]["votes"]
    assert [v["deferred"] for v in votes] == [False, True, True]
    assert rep["summary"]["counts"]["deferred"] == 1 and rep["summary"]["deferred_judges"] == 2
    assert "1 deferred (2 judge vote(s) unreachable)" in r.stdout
    assert "~ gpt-4o" in r.stdout
    strict, rep2 = run_json(path, "--require-judge")
    assert strict.returncode == ExitCode.TESTS_FAILED
    assert rep2["tests"][0]["assertions"][0]["message"].startswith(
        "judge required but unavailable: 2 of 3 juror(s) deferred")


def test_a_jury_the_missing_jurors_cannot_overturn_is_decided_on_the_jurors_it_has(
        tmp_path: Path, js: JudgeServer) -> None:
    """Quorum 0.5, five jurors, three pass and two are missing: 3/5 at worst, still met."""
    for m in ("juror-a", "juror-b", "juror-c"):
        js.script(m, Verdict(score=0.9))
    path = jury_suite(tmp_path, js, ["juror-a", "juror-b", "juror-c"],
                      ["gpt-4o", "claude-sonnet-4-5"])
    r, rep = run_json(path)
    assert r.returncode == ExitCode.OK, r.stderr
    a = rep["tests"][0]["assertions"][0]
    assert a["status"] == "passed"
    assert "2 juror(s) deferred; no vote of theirs could change the verdict" in a["message"]
    assert a["judge"]["jury"]["deferred"] == 2 and a["judge"]["jury"]["decisive"] == 3
    assert rep["summary"]["deferred_judges"] == 2 and rep["summary"]["counts"]["passed"] == 1
    assert "3/3 passed, 2 deferred" in r.stdout
    # --require-judge fails any deferral, even one that could not have changed the verdict
    strict, _ = run_json(path, "--require-judge")
    assert strict.returncode == ExitCode.TESTS_FAILED
    # and a settled failure is a failure: three dissent, two missing, unanimity wanted
    js.script("juror-a", Verdict(score=0.1))
    failing = jury_suite(tmp_path, js, ["juror-a", "juror-b"], ["gpt-4o"], ", quorum: 1.0")
    r3, rep3 = run_json(failing)
    assert r3.returncode == ExitCode.TESTS_FAILED and rep3["tests"][0]["status"] == "failed"


def test_min_jurors_still_applies_to_a_partial_jury(tmp_path: Path, js: JudgeServer) -> None:
    """Two present, min_jurors 3: the missing juror could make up the number, so the jury
    waits (deferred); with min_jurors 4 not even it could, so it is inconclusive (failed)."""
    for m in ("juror-a", "juror-b"):
        js.script(m, Verdict(score=0.9))
    path = jury_suite(tmp_path, js, ["juror-a", "juror-b"], ["gpt-4o"], ", min_jurors: 3")
    r, rep = run_json(path)
    assert rep["tests"][0]["assertions"][0]["status"] == "deferred", r.stdout
    assert "of the 3 needed" in rep["tests"][0]["assertions"][0]["message"]


# ------------------------------------------------------- 2. a single-juror agreement gate

def test_an_undefined_agreement_gate_is_skipped_and_the_test_keeps_its_verdict(
        tmp_path: Path, js: JudgeServer) -> None:
    """docs/jury.md: `jury.agreement` on a single-juror jury is skipped with a note; the test
    passes or fails on its other assertions, and no gap is filed under `shape`."""
    js.script("juror-a", Verdict(score=0.9))
    path = jury_suite(tmp_path, js, ["juror-a"], [])
    text = path.read_text(encoding="utf-8") + """      - target: jury.agreement
        matcher: {schema: {minimum: 0.6}}
      - target: jury.confidence
        matcher: {exact: low}
"""
    path.write_text(text, encoding="utf-8")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    test = rep["tests"][0]
    assert test["status"] == "passed" and test["gap"] is None
    assert [a["status"] for a in test["assertions"]] == ["passed", "skipped", "passed"]
    assert test["assertions"][1]["outside_verdict"] is True
    assert "jury.agreement is undefined" in test["assertions"][1]["message"]
    assert rep["summary"]["gaps"] == {} and rep["summary"]["counts"]["skipped"] == 0
    assert "jury.agreement is undefined" in r.stdout  # the note is shown
    # the verdict still comes from the others: a failing juror fails the test, and the gap is
    # the judges' (a lone juror is always escalated: its agreement is undefined), not `shape`
    js.script("juror-a", Verdict(score=0.1))
    r2, rep2 = run_json(path)
    assert r2.returncode == ExitCode.TESTS_FAILED
    assert rep2["tests"][0]["status"] == "failed"
    assert rep2["tests"][0]["gap"] == "judge-reliability"


# ------------------------------------------------------------------ 3. an impossible jury

def test_min_jurors_above_the_jurors_is_a_positioned_load_error(
        tmp_path: Path, js: JudgeServer) -> None:
    path = jury_suite(tmp_path, js, ["juror-a", "juror-b"], [],
                      ", min_jurors: 3, replacements: [{model: juror-c}]")
    line = next(k for k, x in enumerate(path.read_text().splitlines(), 1) if "min_jurors" in x)
    col = path.read_text().splitlines()[line - 1].index("min_jurors: 3") + len("min_jurors: ") + 1
    for command in ("validate", "run"):
        r = cli(command, path)
        assert r.returncode == ExitCode.USAGE_ERROR, r.stderr
        assert r.stderr.strip().removeprefix("error: ") == (
            f"{path}:{line}:{col}: "
            "tools[0].expect[0].matcher.llm-jury.min_jurors: `min_jurors: 3` can never be met: "
            "the jury has 2 juror(s) (its 1 replacement(s) only take a failed juror's seat); "
            "lower `min_jurors` or add jurors"), r.stderr
    assert js.count() == 0


# ------------------------------------------------------------------------ 4. the budget stop

def test_once_a_call_is_refused_no_new_model_call_starts(tmp_path: Path, js: JudgeServer) -> None:
    """A judge too dear for the cap is refused first; the cheap judges of the later tests would
    each fit, but the run has stopped spending: none is sent, all report `budget`, exit 5, and
    the reports are written."""
    js.script("pricey-judge", Verdict(score=0.9))
    js.script("cheap-judge", Verdict(score=0.9))
    tests = "".join(f"""  - name: note {k}
    server: ex
    tool: release_note
    args: {{service: billing, tag: v1.2.{k}}}
    expect:
      - target: result.content[0].text
        matcher: {{llm-judge: {{rubric: "Reads as a note.", model: {model}}}}}
""" for k, model in enumerate(["pricey-judge", "cheap-judge", "cheap-judge"]))
    path = tmp_path / "budget.yml"
    path.write_text(HEAD + f"""judge:
  base_url: {js.base_url}
  pricing:
    pricey-judge: {{input: 1000000, output: 1000000}}
    cheap-judge: {{input: 0.01, output: 0.01}}
tools:
""" + tests, encoding="utf-8")
    junit = tmp_path / "junit.xml"
    r, rep = run_json(path, "--max-cost", "0.5", "--reporter", "junit", "--output", str(junit))
    assert r.returncode == ExitCode.POLICY_STOP == rep["summary"]["exit_code"], r.stderr
    assert js.count("pricey-judge") == 0 and js.count("cheap-judge") == 0
    messages = [t["assertions"][0]["message"] for t in rep["tests"]]
    assert [t["assertions"][0]["status"] for t in rep["tests"]] == ["skipped"] * 3
    assert messages[0].startswith("budget: worst case")
    assert all(m.startswith("budget: not sent, the run stopped spending") for m in messages[1:])
    assert [t["gap"] for t in rep["tests"]] == ["budget"] * 3
    assert rep["summary"]["budget_stopped"] and rep["summary"]["cost_usd"] == 0.0
    assert "budget stopped the run" in r.stdout and junit.is_file()


# ------------------------------------------------------------ 5. an eval jury samples, or is refused

def test_an_eval_jury_samples_above_temperature_0_or_is_refused(
        tmp_path: Path, js: JudgeServer) -> None:
    """docs/evals.md: three gradings at temperature 0 would be one answer paid three times."""
    js.script("judge-m", Verdict(score=0.9))
    path = tmp_path / "jury-eval.yml"
    path.write_text("""evals:
  - name: default sampling
    prompt: p
    response: "ANSWER-ONE"
    rubric: "Is good."
    judge: {jury: {size: 3}}
  - name: chosen sampling
    prompt: p
    response: "ANSWER-TWO"
    rubric: "Is good."
    judge: {jury: {size: 2, temperature: 0.3}}
  - name: lone grading
    prompt: p
    response: "ANSWER-THREE"
    rubric: "Is good."
""", encoding="utf-8")
    env = {**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"}
    r = cli("eval", path, "--no-cache", "--reporter", "json", env=env)
    assert r.returncode == ExitCode.OK, r.stderr
    temps: dict[str, list[float]] = {}
    for body in js.requests("judge-m"):
        key = next(k for k in ("ONE", "TWO", "THREE") if f"ANSWER-{k}" in str(body["messages"]))
        temps.setdefault(key, []).append(body.get("temperature", 0.0))
    assert temps == {"ONE": [0.7] * 3, "TWO": [0.3] * 2, "THREE": [0.0]}
    zero = tmp_path / "zero.yml"
    zero.write_text("""evals:
  - name: paid thrice
    prompt: p
    response: r
    rubric: "Is good."
    judge:
      jury: {size: 3, temperature: 0}
""", encoding="utf-8")
    for command in ("validate", "eval"):
        bad = cli(command, zero, env=env)
        assert bad.returncode == ExitCode.USAGE_ERROR, bad.stderr
        assert bad.stderr.strip().removeprefix("error: ").startswith(
            f"{zero}:7:"), bad.stderr
        assert ("evals[0].judge.jury: a jury of 3 gradings at temperature 0 pays 3 times for "
                "one answer") in bad.stderr


def test_a_juror_s_repetitions_sample_above_temperature_0_or_are_refused(
        tmp_path: Path, js: JudgeServer) -> None:
    """docs/jury.md: a juror's repeated gradings at temperature 0 are one answer paid k times."""
    js.script("juror-a", Verdict(score=0.9))
    js.script("juror-b", Verdict(score=0.8))
    path = jury_suite(tmp_path, js, ["juror-a"], [], ", repetitions: 3")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.OK, r.stderr
    assert len(rep["tests"][0]["assertions"][0]["judge"]["votes"]) == 3
    assert [b.get("temperature") for b in js.requests("juror-a")] == [0.7] * 3
    path = jury_suite(tmp_path, js, ["juror-b"], [], ", repetitions: 2, temperature: 0.4")
    r, _ = run_json(path)
    assert r.returncode == ExitCode.OK, r.stderr
    assert [b.get("temperature") for b in js.requests("juror-b")] == [0.4] * 2
    path = jury_suite(tmp_path, js, ["juror-a"], [], ", repetitions: 3, temperature: 0")
    for command in ("validate", "run"):
        bad = cli(command, path)
        assert bad.returncode == ExitCode.USAGE_ERROR, bad.stderr
        assert bad.stderr.strip().removeprefix("error: ").startswith(f"{path}:12:"), bad.stderr
        assert "3 repetitions at temperature 0 pay 3 times for one answer" in bad.stderr
    assert len(js.requests("juror-a")) == 3  # nothing sent for the refused suite


# ------------------------------------------------------------- 10. the run-level agreement

def test_the_run_agreement_covers_eval_panels(tmp_path: Path, js: JudgeServer) -> None:
    """Evals graded by a three-model panel feed the run's alpha (it printed `n/a` before), and
    a panel's line shows no quorum (it has none: it aggregates by mean)."""
    for model, score in (("judge-a", 0.9), ("judge-b", 0.8), ("judge-c", 0.1)):
        js.script(model, Verdict(score=score))
    path = tmp_path / "panel.yml"
    path.write_text("evals:\n" + "".join(f"""  - name: answer {k}
    prompt: p
    response: "answer {k}"
    rubric: "Is good."
    judge: {{panel: [judge-a, judge-b, judge-c]}}
""" for k in range(3)), encoding="utf-8")
    out = tmp_path / "panel.json"
    r = cli("eval", path, "--no-cache", "--reporter", "pretty", "--reporter", "json",
                "--output", out, env=js.gateway_env())
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr  # mean 0.60 < 0.70
    rep = json.loads(out.read_text(encoding="utf-8"))
    alpha = rep["summary"]["run_agreement"]
    assert alpha is not None and alpha < 0  # the same split three times: worse than chance
    assert f"run agreement α {alpha:.2f}" in r.stdout
    assert rep["tests"][0]["judge"]["jury"]["panel"] is True
    assert ("jury: low · α 0.00 · effective jurors of 3 not estimated: 3 juries of these jurors "
            "in the run, 10 needed · 2/3 passed · verdict failed") in r.stdout
    assert "quorum" not in r.stdout
