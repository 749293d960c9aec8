"""The example files the documents name, run with the documents' own commands (from the
repository root, as a clean clone would) against the loopback judge server."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def env_for(js: JudgeServer, **extra: str) -> dict[str, str]:
    return {**js.gateway_env(), "MCPTEST_PYTHON": sys.executable, **extra}


def report_of(tmp_path: Path, *args: str | Path, env: dict[str, str]) -> tuple[int, dict]:
    out = tmp_path / "report.json"
    r = cli(*args, "--no-cache", "--reporter", "pretty", "--reporter", "json",
                "--output", out, cwd=REPO, env=env)
    assert out.is_file(), r.stderr
    return r.returncode, json.loads(out.read_text(encoding="utf-8"))


def test_the_jury_consensus_example(tmp_path: Path, js: JudgeServer) -> None:
    """Three jurors, quorum 0.67: [pass, pass, fail] passes; the checks ran first."""
    for model, score in (("claude-opus-4-7", 0.9), ("gpt-4o", 0.85), ("gemini-2.5-pro", 0.3)):
        js.script(model, Verdict(score=score))
    code, rep = report_of(
        tmp_path, "run", "--config", "examples/llm-jury-consensus/tests/jury-consensus.yml",
        env=env_for(js))
    assert code == ExitCode.OK, rep["tests"]
    jury = rep["tests"][0]["assertions"][2]["judge"]["jury"]
    assert (jury["passed_jurors"], jury["decisive"], jury["passed_fraction"]) == (2, 3, 0.67)


def test_the_agent_jury_examples(tmp_path: Path, js: JudgeServer) -> None:
    def agent_turns(model: str) -> None:  # a fresh script per run: a tool call, then the answer
        js.script(model, [
            ToolCalls(("release_note", {"service": "billing", "tag": "v1.2.3"})),
            Fault.text("billing v1.2.3 shipped bug fixes and a dependency update; no migrations.")])

    agent_turns("mistral/mistral-small-latest")
    for model in ("claude-sonnet-4-5", "gpt-5", "gemini-2.5-pro", "mistral/mistral-large-latest"):
        js.script(model, Verdict(score=0.9), rubric="Rubric:")
    code, rep = report_of(tmp_path, "run", "examples/agent-jury-agreement.yml", env=env_for(js))
    assert code == ExitCode.OK, json.dumps(rep["tests"], indent=1)[:3000]
    assert rep["warnings"] == []
    statuses = [a["status"] for a in rep["tests"][0]["assertions"]]
    assert statuses == ["passed"] * 5
    agent_turns("gpt-4o-mini")
    code, rep = report_of(tmp_path, "run", "examples/agent-jury-bias.yml", env=env_for(js))
    assert code == ExitCode.OK, json.dumps(rep["tests"], indent=1)[:3000]
    jury = rep["tests"][0]["assertions"][1]["judge"]["jury"]
    assert jury["same_family"] is False and jury["bias_warning"] is None


def test_the_rubric_eval_example_with_its_three_commands(
        tmp_path: Path, js: JudgeServer) -> None:
    env = env_for(js, MCPTEST_JUDGE_MODEL="judge-m")
    v = cli("validate", "--config", "examples/rubric-eval.yml", cwd=REPO, env=env)
    assert v.returncode == ExitCode.OK and v.stdout.startswith("ok: examples/rubric-eval.yml")
    explained = cli("eval", "--explain", "--config", "examples/rubric-eval.yml",
                        cwd=REPO, env=env)
    assert explained.returncode == ExitCode.OK and js.count() == 0
    assert "total: 7 eval row(s), 13 judge call(s)" in explained.stdout
    js.script("judge-m", Verdict(score=0.9, evidence="2.3.0"))
    js.script("judge-m", Verdict(score=0.0), rubric="full card number")
    code, rep = report_of(tmp_path, "eval", "--config", "examples/rubric-eval.yml", env=env)
    assert code == ExitCode.OK, [(t["name"], t["message"]) for t in rep["tests"]]
    assert js.count("judge-m") == 13 == rep["summary"]["judge_calls"]


def test_the_judge_documents_commands_run_verbatim(tmp_path: Path, js: JudgeServer) -> None:
    """`mcptest eval --max-cost 0.50 tests/judge.yml` (and the option after the file), from a
    fresh copy of the files it needs, so the default verdict cache starts empty. Without a key
    the judged assertions are deferred (exit 0), where the document's v1.0 stub printed SKIP
    NotYetAvailable: our runner grades (docs/decisions.md, "Seed documents")."""
    clone = tmp_path / "clone"
    for part in ("tests/judge.yml", "examples/server/example_server.py"):
        (clone / part).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(REPO / part, clone / part)
    keyless = cli("eval", "tests/judge.yml", cwd=clone,
                      env={"MCPTEST_PYTHON": sys.executable})
    assert keyless.returncode == ExitCode.OK, keyless.stdout + keyless.stderr
    assert "0 passed, 2 deferred of 2" in keyless.stdout
    js.script("claude-sonnet-4-5", Verdict(score=0.92))
    js.script("claude-haiku-4-5", Verdict(score=0.81))
    env = env_for(js, MCPTEST_JUDGE_MODEL="claude-haiku-4-5")
    for argv in (("eval", "--max-cost", "0.50", "tests/judge.yml"),
                 ("eval", "tests/judge.yml", "--max-cost", "0.50")):
        r = cli(*argv, cwd=clone, env=env)
        assert r.returncode == ExitCode.OK, r.stdout + r.stderr
        assert "✓ PASS  summary mentions the service and the release tag" in r.stdout
        assert "✓ PASS  error explanation is actionable" in r.stdout
        assert "of $0.5000 cap" in r.stdout
    assert js.count() == 2  # the second run read the verdicts the first one cached


def test_the_other_documents_commands_run_verbatim(tmp_path: Path, js: JudgeServer) -> None:
    """`mcptest run --config examples/llm-jury-consensus/tests/jury-consensus.yml` and
    `mcptest eval --config examples/rubric-eval.yml`, exactly as written, from a fresh copy of
    examples/ (so the default verdict cache starts empty)."""
    clone = tmp_path / "clone"
    shutil.copytree(REPO / "examples", clone / "examples",
                    ignore=shutil.ignore_patterns("__pycache__", ".mcptest"))
    for model, score in (("claude-opus-4-7", 0.9), ("gpt-4o", 0.85), ("gemini-2.5-pro", 0.3)):
        js.script(model, Verdict(score=score))
    r = cli("run", "--config", "examples/llm-jury-consensus/tests/jury-consensus.yml",
                cwd=clone, env=env_for(js))
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    assert "✓ PASS  release note reads as a deployment note across the jury" in r.stdout
    assert "2/3 passed, quorum 0.67 · verdict passed" in r.stdout
    js.script("judge-m", Verdict(score=0.9, evidence="2.3.0"))
    js.script("judge-m", Verdict(score=0.0), rubric="full card number")
    e = cli("eval", "--config", "examples/rubric-eval.yml", cwd=clone,
                env=env_for(js, MCPTEST_JUDGE_MODEL="judge-m"))
    assert e.returncode == ExitCode.OK, e.stdout + e.stderr
    assert "7 passed of 7" in e.stdout
