"""Every YAML snippet of the five source documents, kept as written in tests/data/seed_snippets/
(index: `SNIPPETS` in seed_snippets.py), loads and behaves as its document says when run through
the CLI against the example server and the loopback judge. This module: the index itself, the
verbatim check, `validate`, and the jury (000) and judge (002) snippets;
test_seed_snippets_evals.py runs the rubric-scoring ones (003).

Not applicable, because they are not YAML:
- 001 (LLM as a jury) shows only Python: `llm_jury(...)`/`evaluatorq(...)` (lines 11-32),
  verdict modes (43-58), reading results (79-84), `red_team(EvaluatorConfig(...))` (87-104) and
  the report loop (108-117). Its facts live in our YAML (`llm-jury`, docs/jury.md).
- 004 (why a jury) describes a Java API (`Judge`, `JudgmentContext`, `Judgment`); its code
  blocks ("Start with a single Tier 1 judge:", "Add judges from each tier with weights:") were
  lost, and its tables are Java types. Tiers are docs/cascade.md.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pipeline.seed_snippets import DATA, DOCS, SNIPPETS, digest, env_for, pasted, path_of, run
from support.cli_inproc import cli
from support.cli_run import REPO
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode


@pytest.mark.parametrize("sid", sorted(SNIPPETS))
def test_the_pasted_text_is_the_documents(sid: str) -> None:
    doc, lines, text = pasted(path_of(sid))
    assert (doc, lines) == (sid[:3], SNIPPETS[sid].lines) and doc in DOCS
    assert digest(text) == SNIPPETS[sid].sha256, text


def test_every_snippet_file_is_indexed_and_tests_judge_yml_is_002_01() -> None:
    assert sorted(p.stem for p in DATA.glob("*.yml")) == sorted(SNIPPETS)
    assert pasted(REPO / "tests" / "judge.yml") == pasted(path_of("002-01"))


@pytest.mark.slow
def test_every_snippet_validates() -> None:
    files = [path_of(sid).relative_to(REPO) for sid in sorted(SNIPPETS)]
    r = cli("validate", *files, cwd=REPO, env=env_for(None))
    assert r.returncode == ExitCode.OK, r.stderr
    assert r.stderr == ""  # not even a warning
    assert [line.split(" ")[1] for line in r.stdout.splitlines()] == [str(f) for f in files]


def jury_of(assertion: dict) -> dict:
    return assertion["judge"]["jury"]


def statuses(run_row: dict) -> list[str]:
    return [a["status"] for a in run_row["assertions"]]


@pytest.mark.slow
def test_000_01_two_of_three_passes_one_of_three_fails(tmp_path: Path, js: JudgeServer) -> None:
    for model, score in (("claude-opus-4-7", 0.9), ("gpt-4o", 0.85), ("gemini-2.5-pro", 0.3)):
        js.script(model, Verdict(score=score))
    ok = run("run", path_of("000-01"), tmp_path, env_for(js))
    assert ok.code == ExitCode.OK, ok.stdout
    jury = jury_of(ok.row()["assertions"][0])
    assert (jury["passed_jurors"], jury["decisive"], jury["passed_fraction"]) == (2, 3, 0.67)
    js.script("gpt-4o", Verdict(score=0.5))  # below the 0.7 per-juror line
    bad = run("run", path_of("000-01"), tmp_path, env_for(js))
    assert bad.code == ExitCode.TESTS_FAILED
    assert jury_of(bad.row()["assertions"][0])["passed_fraction"] == 0.33
    assert "summary should read as a deployment note across the jury" in bad.stdout


@pytest.mark.slow
def test_000_02_a_split_jury_fails_its_gates_though_the_quorum_passed(
        tmp_path: Path, js: JudgeServer) -> None:
    jurors = ("claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro")
    for model, score in zip(jurors, (0.9, 0.85, 0.88), strict=True):
        js.script(model, Verdict(score=score))
    agreed = run("run", path_of("000-02"), tmp_path, env_for(js))
    assert agreed.code == ExitCode.OK, agreed.stdout
    assert statuses(agreed.row()) == ["passed"] * 4
    assert jury_of(agreed.row()["assertions"][0])["confidence"] == "high"
    js.script("gemini-2.5-pro", Verdict(score=0.05))  # 2 of 3 still meet quorum 0.66
    split = run("run", path_of("000-02"), tmp_path, env_for(js))
    assert split.code == ExitCode.TESTS_FAILED
    jury = jury_of(split.row()["assertions"][0])
    assert (jury["passed_fraction"], jury["confidence"], jury["escalate"]) == (0.67, "low", True)
    assert jury["agreement"] == 0.0  # alpha clipped at 0
    assert statuses(split.row()) == ["passed", "failed", "failed", "failed"]


@pytest.mark.slow
def test_000_03_a_tool_result_jury_has_no_family_to_share(
        tmp_path: Path, js: JudgeServer) -> None:
    for model, score in (("claude-sonnet-4-5", 0.9), ("gpt-5", 0.9), ("gemini-2.5-pro", 0.05)):
        js.script(model, Verdict(score=score))
    r = run("run", path_of("000-03"), tmp_path, env_for(js))
    assert r.code == ExitCode.OK, r.stdout
    jury = jury_of(r.row()["assertions"][0])
    assert jury["escalate"] is True  # low agreement, and still no bias warning
    assert (jury["same_family"], jury["bias_warning"]) == (False, None)
    assert statuses(r.row()) == ["passed"] * 3
    # without the one jury the wrapper adds, the document's two targets are a load error
    text = path_of("000-03").read_text(encoding="utf-8")
    alone = tmp_path / "alone.yml"
    alone.write_text(text[:text.index("      # ours:")] + text[text.index("      # >>> seed"):],
                     encoding="utf-8")
    v = cli("validate", alone, env=env_for(None))
    assert v.returncode == ExitCode.USAGE_ERROR
    assert f"{alone}:" in v.stderr and "jury.same_family" in v.stderr, v.stderr


@pytest.mark.slow
def test_002_01_the_judge_suite_under_the_cap(tmp_path: Path, js: JudgeServer) -> None:
    """Our pretty lines carry what the document's do (verdict, name, score, cost; the total and
    the cap; on failure score < threshold and the judge's explanation), laid out our way
    (docs/reports.md)."""
    js.script("claude-sonnet-4-5", Verdict(score=0.92))
    js.script("claude-haiku-4-5", Verdict(score=0.81))
    env = env_for(js, MCPTEST_JUDGE_MODEL="claude-haiku-4-5")  # "the runner picks the default"
    ok = run("eval", path_of("002-01"), tmp_path, env, "--max-cost", "0.50")
    assert ok.code == ExitCode.OK, ok.stdout + ok.stderr
    lines = ok.stdout.splitlines()
    for name, score in (("summary mentions the service and the release tag", "0.92"),
                        ("error explanation is actionable", "0.81")):
        line = next(x for x in lines if name in x)
        assert line.startswith("✓ PASS") and f"score {score}" in line and "$0.00" in line, line
    assert "2 passed of 2" in ok.stdout and "of $0.5000 cap" in ok.stdout
    assert js.count("claude-sonnet-4-5") == js.count("claude-haiku-4-5") == 1
    reason = 'response mentioned the service "checkout" but not the release tag "v2.31.4"'
    js.script("claude-sonnet-4-5", Verdict(score=0.55, reason=reason))
    bad = run("eval", path_of("002-01"), tmp_path, env, "--max-cost", "0.50")
    assert bad.code == ExitCode.TESTS_FAILED
    line = next(x for x in bad.stdout.splitlines() if "summary mentions" in x)
    assert line.startswith("✗ FAIL") and "score 0.55" in line
    assert f"score 0.55 < threshold 0.70: {reason}" in bad.stdout
    assert "1 passed, 1 failed of 2" in bad.stdout
    # "a hard ceiling ... so a misconfigured suite cannot rack up unbounded spend"
    sent = js.count()
    capped = run("eval", path_of("002-01"), tmp_path, env, "--max-cost", "0.002")
    assert capped.code == ExitCode.POLICY_STOP and js.count() == sent
    assert [t["status"] for t in capped.report["tests"]] == ["skipped", "skipped"]
