"""`mcptest eval` and `mcptest eval --explain` as a user runs them (real files, the environment a
subprocess would be given; in the test's process: support/cli_inproc.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from evals.test_seed_examples import script_agents
from support.cli_inproc import Ran, cli
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples" / "evals.yml"
SEED = REPO / "tests" / "data" / "evals" / "seed.yml"


def wrapper(tmp_path: Path) -> tuple[Path, Path]:
    """An interpreter stand-in that leaves a marker when anything starts a server with it."""
    marker = tmp_path / "server-started"
    script = tmp_path / "python-wrapper"
    script.write_text(f"#!/bin/sh\ntouch {marker}\nexec {sys.executable} \"$@\"\n",
                      encoding="utf-8")
    script.chmod(0o755)
    return script, marker


def mcptest(*args: str | Path, env: dict[str, str]) -> Ran:
    return cli(*args, env=env, inherit=False, cwd=REPO)


def env_for(js: JudgeServer, python: Path, **extra: str) -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
            "MCPTEST_PYTHON": str(python), **js.gateway_env(), **extra}


def explained_total(stdout: str) -> int:
    m = re.search(r"^total: \d+ eval row\(s\)(?:, \d+ judged tool test\(s\))?, "
                  r"(?:up to )?(\d+) judge call\(s\)", stdout, re.MULTILINE)
    assert m, stdout
    return int(m.group(1))


def judge_calls(js: JudgeServer) -> int:
    return sum(1 for b in js.requests() if "Rubric:" in str(b.get("messages")))


def script_examples(js: JudgeServer) -> None:
    js.script("gpt-4o-mini", [ToolCalls(("forecast", {"city": "Oslo"})),
                              Fault.text("Oslo: 7.5 °C and windy.")],
              candidate="forecast for Oslo? Use the tools.")
    for model in ("gpt-4o-mini", "anthropic/claude-haiku-4-5"):
        js.script(model, Verdict(0.9, evidence="2.3.0"), rubric="Rubric:")


def test_explain_calls_nothing_and_starts_nothing(tmp_path: Path) -> None:
    python, marker = wrapper(tmp_path)
    with JudgeServer() as js:
        env = env_for(js, python)
        probe = ("import sys; from mcptest.cli.main import main; "
                 f"rc = main(['eval', '--explain', '--config', {str(EXAMPLES)!r}]); "
                 "print('litellm imported:', 'litellm' in sys.modules); sys.exit(rc)")
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                              env=env, timeout=120, cwd=REPO)
        assert done.returncode == 0, done.stderr
        out = done.stdout
        assert "litellm imported: False" in out
        assert js.count() == 0 and not marker.exists()
        assert explained_total(out) == 26
        # per eval: rubric, candidate source, judge model(s), calls
        assert "weather answer walks the tree" in out and "judge calls: up to 2" in out
        assert "candidate: live agent run (gpt-4o-mini)" in out
        assert "judge: gpt-4o-mini via gateway × 3 (jury)" in out
        assert "summary matrix [model=anthropic/claude-haiku-4-5, prompt=2]" in out
        assert "- apologizes for errors (when)" in out
        assert re.search(r"cost bound \$\d+\.\d{4}", out)


EVERY_SUITE = [*sorted((REPO / "examples").glob("*.yml")), SEED]


@pytest.mark.parametrize("suite", EVERY_SUITE, ids=lambda p: p.name)
def test_explained_calls_equal_the_calls_a_real_run_makes(tmp_path: Path, suite: Path) -> None:
    python, marker = wrapper(tmp_path)
    with JudgeServer() as js:
        env = env_for(js, python, MCPTEST_JUDGE_MODEL="judge-m")
        explained = mcptest("eval", "--explain", "--config", suite, env=env)
        assert explained.returncode == 0, explained.stderr
        assert js.count() == 0 and not marker.exists()
        script_examples(js)
        script_agents(js)
        js.script("judge-m", Verdict(0.9), rubric="Rubric:")
        for model in ("claude-sonnet-4-5", "claude-haiku-4-5", "anthropic/claude-sonnet-4-5",
                      "openai/gpt-4o", "gemini/gemini-2.5-pro"):  # the last three: judges.yml
            js.script(model, Verdict(0.9))
        out = tmp_path / "report.json"
        real = mcptest("eval", "--config", suite, "--no-cache", "--reporter", "json",
                       "--output", out, env=env)
        report = json.loads(out.read_text(encoding="utf-8"))
        if "live agent run" in explained.stdout:  # it starts a server: the check above can fail
            assert marker.exists()
        assert report["summary"]["counts"]["error"] == 0, real.stderr
        assert report["summary"]["judge_calls"] == judge_calls(js)
        if "judged tool test" in explained.stdout:
            # tool tests' judges are sent only when their deterministic checks passed
            # (docs/cascade.md): the projection is their upper bound
            assert judge_calls(js) <= explained_total(explained.stdout)
            assert report["summary"]["projected_judge_calls"] == explained_total(
                explained.stdout)
        else:
            assert judge_calls(js) == explained_total(explained.stdout)
            assert report["summary"]["projected_judge_calls"] == judge_calls(js)


def test_explain_counts_every_repetition_a_repeated_run_sends(tmp_path: Path) -> None:
    """`--repeat 3` and a test's own `repeat: 2`: the explained total is what the run sends."""
    suite = tmp_path / "repeated.yml"
    suite.write_text(
        "evals:\n"
        "  - name: three times\n"
        "    prompt: What colour is the sky?\n"
        "    response: The sky is blue.\n"
        "    rubric: The answer names a colour.\n"
        "  - name: twice\n"
        "    prompt: What colour is grass?\n"
        "    response: Grass is green.\n"
        "    rubric: The answer names a colour.\n"
        "    repeat: 2\n", encoding="utf-8")
    python, _ = wrapper(tmp_path)
    with JudgeServer() as js:
        env = env_for(js, python, MCPTEST_JUDGE_MODEL="judge-m")
        explained = mcptest("eval", "--explain", "--repeat", "3", suite, env=env)
        assert explained.returncode == 0, explained.stderr
        assert "judge calls: 3 (1 question(s) per grading; 1 a repetition × 3 repetitions)" \
            in explained.stdout
        assert explained_total(explained.stdout) == 5
        js.script("judge-m", Verdict(0.9), rubric="Rubric:")
        real = mcptest("eval", "--repeat", "3", suite, "--no-cache", env=env)
        assert real.returncode == 0, real.stdout + real.stderr
        assert judge_calls(js) == 5
        # the header counts every repetition, before each repetition's own header
        assert "mcptest: up to 3 repetitions; judges: up to 5 call(s) in all" in real.stderr
        assert "mcptest: [5/5] passed" in real.stderr  # the progress counts every repetition
