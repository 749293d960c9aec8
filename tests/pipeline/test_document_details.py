"""The smaller behaviours the source documents describe (issue 11, item 10), through the CLI
against the loopback judge server: preset `strict`, what a failing `not` negated, the load
warning on two thresholds, and a tree rubric refusing criteria-only keys."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def test_a_preset_accepts_strict_and_a_near_perfect_score_then_fails(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script("judge-m", Verdict(score=0.95))
    path = tmp_path / "preset.yml"
    path.write_text("""evals:
  - name: strict preset
    prompt: p
    response: "an answer"
    rubric: {preset: conciseness, strict: true}
  - name: lenient preset
    prompt: p
    response: "another answer"
    rubric: {preset: conciseness}
""", encoding="utf-8")
    out = tmp_path / "preset.json"
    r = cli("eval", path, "--no-cache", "--reporter", "json", "--output", out,
                env={**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"})
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    rows = {t["name"]: t for t in json.loads(out.read_text())["tests"]}
    assert rows["strict preset"]["status"] == "failed"
    assert "strict" in rows["strict preset"]["message"]
    assert rows["lenient preset"]["status"] == "passed"


def test_a_failing_not_shows_what_it_negated(tmp_path: Path) -> None:
    path = tmp_path / "not.yml"
    path.write_text(HEAD + """tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {not: {contains: Ada}}
""", encoding="utf-8")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.TESTS_FAILED
    a = rep["tests"][0]["assertions"][0]
    assert a["expected"] == {"not": {"contains": "Ada"}}
    assert 'expected: {"not": {"contains": "Ada"}}' in r.stdout
    assert "expected: null" not in r.stdout


def test_two_thresholds_warn_which_one_wins(tmp_path: Path, js: JudgeServer) -> None:
    js.script("judge-m", Verdict(score=0.75))
    path = tmp_path / "thresholds.yml"
    path.write_text("""rubrics:
  tone:
    threshold: 0.6
    criteria:
      - {name: polite, description: "Is polite."}
evals:
  - name: eval wins over the body
    prompt: p
    response: "an answer"
    threshold: 0.8
    rubric: {ref: tone}
  - name: the reference wins over the eval
    prompt: p
    response: "another answer"
    threshold: 0.8
    rubric: {ref: tone, threshold: 0.7}
""", encoding="utf-8")
    v = cli("validate", path)
    assert v.returncode == ExitCode.OK, v.stderr
    assert v.stderr.splitlines() == [
        f"warning: {path}:10:16: evals[0].threshold: both the eval's `threshold` (0.8) and "
        "rubric `tone`'s (0.6) are set; the eval's 0.8 wins (docs/evals.md, Thresholds)",
        f"warning: {path}:15:16: evals[1].threshold: both the eval's `threshold` (0.8) and "
        "the rubric reference's (0.7) are set; the rubric reference's 0.7 wins "
        "(docs/evals.md, Thresholds)"]
    out = tmp_path / "thresholds.json"
    r = cli("eval", path, "--no-cache", "--reporter", "json", "--output", out,
                env={**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"})
    rep = json.loads(out.read_text())
    assert rep["warnings"] == [w.removeprefix("warning: ") for w in v.stderr.splitlines()]
    # and they are what happened: 0.75 fails the 0.8 the eval set, passes the reference's 0.7
    assert [t["status"] for t in rep["tests"]] == ["failed", "passed"], r.stderr


def test_a_tree_rubric_refuses_criteria_only_keys(tmp_path: Path) -> None:
    path = tmp_path / "tree.yml"
    path.write_text("""evals:
  - name: tree
    prompt: p
    response: r
    rubric:
      require_evidence: true
      tree:
        ask: "Does it answer?"
        yes: {score: 1.0}
        no: {score: 0.0}
""", encoding="utf-8")
    r = cli("validate", path)
    assert r.returncode == ExitCode.USAGE_ERROR
    assert "evals[0].rubric" in r.stderr
    assert "`require_evidence` apply to `criteria`; a `tree` rubric scores the leaf" in r.stderr


def test_a_live_eval_with_nothing_to_grade_defers_and_a_typo_stays_an_error(
        tmp_path: Path, js: JudgeServer) -> None:
    """docs/evals.md: without a response to grade, an eval defers with a note (passes unless
    --require-judge); a server name the suite does not declare is still a load error."""
    path = tmp_path / "live.yml"
    path.write_text(HEAD + """evals:
  - name: summary stays on topic
    prompt: "Summarize the latest deployment."
    rubric: "Mentions the service and the tag."
""", encoding="utf-8")
    env = {**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"}
    assert cli("validate", path).returncode == ExitCode.OK
    out = tmp_path / "live.json"
    r = cli("eval", path, "--no-cache", "--reporter", "json", "--output", out, env=env)
    assert r.returncode == ExitCode.OK, r.stderr
    row = json.loads(out.read_text())["tests"][0]
    assert row["status"] == "deferred"
    assert row["message"].startswith("deferred: no `response` to grade and no `server`")
    strict = cli("eval", path, "--no-cache", "--require-judge", "--reporter", "json",
                     "--output", out, env=env)
    assert strict.returncode == ExitCode.TESTS_FAILED
    assert json.loads(out.read_text())["tests"][0]["gap"] == "environment"
    assert js.count() == 0
    typo = tmp_path / "typo.yml"
    typo.write_text(HEAD + """evals:
  - name: summary stays on topic
    server: exx
    prompt: "Summarize the latest deployment."
    rubric: "Mentions the service and the tag."
""", encoding="utf-8")
    bad = cli("eval", typo, env=env)
    assert bad.returncode == ExitCode.USAGE_ERROR
    assert "evals[0].server: unknown server `exx` (did you mean `ex`?)" in bad.stderr


def test_eval_grades_the_judged_tool_tests_as_the_judge_document_runs_it(
        tmp_path: Path, js: JudgeServer) -> None:
    """`mcptest eval --max-cost 0.50 tests/judge.yml`: the tool tests with judged assertions
    are graded (and the judge-free ones left to `run`); `mcptest run` still skips evals."""
    js.script("judge-m", Verdict(score=0.92))
    tests = tmp_path / "tests"
    tests.mkdir()
    (tests / "judge.yml").write_text(HEAD + """judge:
  pricing:
    judge-m: {input: 0.15, output: 0.6}
tools:
  - name: summary mentions the service and the release tag
    server: ex
    tool: release_note
    args: {service: billing, tag: v1.2.3}
    expect:
      - target: result.content[0].text
        matcher:
          llm-judge: {rubric: "Names the service and the release tag."}
  - name: plain greeting
    server: ex
    tool: greet
    args: {name: Ada}
    expect: [{target: "result.content[0].text", matcher: {contains: Ada}}]
evals:
  - {name: an eval, prompt: p, response: "an answer", rubric: "Is good."}
""", encoding="utf-8")
    env = {**js.gateway_env(), "MCPTEST_JUDGE_MODEL": "judge-m"}
    r = cli("eval", "--max-cost", "0.50", "tests/judge.yml", cwd=tmp_path, env=env)
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    assert "✓ PASS  summary mentions the service and the release tag" in r.stdout
    assert "score 0.92" in r.stdout and "an eval" in r.stdout
    assert "plain greeting" not in r.stdout
    assert js.count("judge-m") == 2
    ran = cli("run", "tests/judge.yml", "--reporter", "json", cwd=tmp_path, env=env)
    names = [t["name"] for t in json.loads(ran.stdout)["tests"]]
    assert names == ["summary mentions the service and the release tag", "plain greeting"]


# ------------------------------------------------------------ 6. panels, families, formats

def test_same_family_judges_warn_and_strict_panel_refuses_them_on_evals_too(
        tmp_path: Path) -> None:
    body = """evals:
  - name: live answer judged by a panel
    prompt: "Greet Ada."
    model: gpt-4o-mini
    server: ex
    rubric: "Greets Ada."
    judge: {{panel: [claude-haiku-4-5, gpt-4o]{strict}}}
"""
    loose = tmp_path / "loose.yml"
    loose.write_text(HEAD + body.format(strict=""), encoding="utf-8")
    v = cli("validate", loose)
    assert v.returncode == ExitCode.OK, v.stderr
    assert v.stderr.strip() == (
        f"warning: {loose}:10:39: evals[0].judge.panel[1]: judge `gpt-4o` is from the openai "
        "family, like `gpt-4o-mini` that writes the answer, and may favour it; prefer another "
        "family (`strict_panel: true` makes this an error)")
    strict = tmp_path / "strict.yml"
    strict.write_text(HEAD + body.format(strict=", strict_panel: true"), encoding="utf-8")
    s = cli("validate", strict)
    assert s.returncode == ExitCode.USAGE_ERROR
    assert s.stderr.strip() == (
        f"{strict}:10:39: evals[0].judge.panel[1]: judge `gpt-4o` is from the openai family, "
        "like the model `gpt-4o-mini` that writes this eval's answer; `strict_panel: true` "
        "forbids that")


def test_structured_output_false_sends_no_response_format(tmp_path: Path,
                                                          js: JudgeServer) -> None:
    js.script("judge-m", Verdict(score=0.9))
    path = tmp_path / "plain.yml"
    for flag in ("true", "false"):
        path.write_text(f"""judge: {{model: judge-m, structured_output: {flag}}}
evals:
  - {{name: format {flag}, prompt: p, response: "answer {flag}", rubric: "Is good."}}
""", encoding="utf-8")
        r = cli("eval", path, "--no-cache", env=js.gateway_env())
        assert r.returncode == ExitCode.OK, r.stderr
    sent = {b["messages"][-1]["content"].count("answer true") > 0: b
            for b in js.requests("judge-m")}
    assert sent[True]["response_format"] == {"type": "json_object"}
    assert "response_format" not in sent[False]
