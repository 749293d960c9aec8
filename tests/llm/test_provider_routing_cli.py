"""Routing as a user meets it, through the CLI: the bundled cross-family jury with one key per
provider, a judge that cannot be reached, and the model names and temperatures a provider would
refuse, caught at load time."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, REPO, run_json
from support.judge_server import Verdict
from support.providers import AnthropicStandIn, GeminiStandIn, OpenAIStandIn

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # the CLI in a subprocess, the example server, litellm


def test_the_jury_consensus_example_asks_all_three_families(tmp_path: Path) -> None:
    """`claude-opus-4-7`, `gpt-4o`, `gemini-2.5-pro` as the example writes them, each with its
    provider's key: each reaches its own provider (a bare Gemini name used to go to Vertex AI
    and the jury passed on two of three)."""
    with AnthropicStandIn() as a, OpenAIStandIn() as o, GeminiStandIn() as g:
        a.script("claude-opus-4-7", Verdict(score=0.9))
        o.script("gpt-4o", Verdict(score=0.85))
        g.script("gemini-2.5-pro", Verdict(score=0.3, thinking_tokens=3000))
        out = tmp_path / "report.json"
        r = cli("run", "--config", "examples/llm-jury-consensus/tests/jury-consensus.yml",
                    "--no-cache", "--reporter", "pretty", "--reporter", "json", "--output", out,
                    cwd=REPO, env={**a.env(), **o.env(), **g.env(),
                                   "MCPTEST_PYTHON": sys.executable})
        assert r.returncode == ExitCode.OK, r.stdout + r.stderr
        assert (a.count(), o.count(), g.count()) == (1, 1, 1)
        assert a.problems == o.problems == g.problems == []
    jury = json.loads(out.read_text())["tests"][0]["assertions"][2]["judge"]["jury"]
    assert (jury["passed_jurors"], jury["decisive"], jury["passed_fraction"]) == (2, 3, 0.67)
    assert "2/3 passed, quorum 0.67 · verdict passed" in r.stdout


def judged(matcher: str) -> str:
    """A suite of one tool test whose one assertion is `matcher` (YAML at its indent)."""
    return HEAD + f"""tools:
  - name: judged
    server: ex
    tool: release_note
    args: {{ service: checkout, tag: v2.31.4 }}
    expect:
      - target: "result.content[0].text"
        matcher:{matcher}
"""


SUITE = judged(' { llm-judge: { rubric: "names the tag", model: gpt-4o } }')


def test_a_refused_connection_costs_nothing_and_names_the_url(tmp_path: Path) -> None:
    """No request was delivered: not a budget stop (exit 5), $0, the URL in the message, the
    gap `environment` (it used to be billed its worst case, fill the cap and say "raise the
    cap")."""
    path = tmp_path / "suite.yml"
    path.write_text(SUITE, encoding="utf-8")
    url = "http://127.0.0.1:9/v1"  # the discard port: nothing listens there
    r, rep = run_json(path, "--max-cost", "0.02", env={"MCPTEST_JUDGE_BASE_URL": url})
    assert r.returncode == ExitCode.TESTS_FAILED != ExitCode.POLICY_STOP, r.stdout
    test = rep["tests"][0]
    assert test["gap"] == "environment" and test["status"] == "error"
    message = test["assertions"][0]["message"]
    assert message.startswith(f"judge unreachable: {url} (connection refused) after 4 tries")
    assert rep["summary"]["cost_usd"] == 0.0 and not rep["summary"]["budget_stopped"]
    assert rep["summary"]["judge_calls"] == 0  # nothing was delivered
    assert "raise the cap" not in r.stdout and "sharpen the rubric" not in r.stdout


def test_an_ambiguous_model_name_is_a_load_error_at_its_key(tmp_path: Path) -> None:
    path = tmp_path / "suite.yml"
    path.write_text(SUITE.replace("model: gpt-4o", "model: llama-3.3-70b"), encoding="utf-8")
    r = cli("run", path, "--no-cache", env={"GROQ_API_KEY": "k"})
    assert r.returncode == ExitCode.USAGE_ERROR, r.stdout + r.stderr
    assert f"{path}:11:" in r.stderr and "llm-judge.model" in r.stderr
    assert "model 'llama-3.3-70b' does not say its provider" in r.stderr
    assert "write `cerebras/llama-3.3-70b`" in r.stderr
    # through a gateway any name goes, unchanged
    gw = cli("run", path, "--no-cache", env={"MCPTEST_JUDGE_BASE_URL": "http://127.0.0.1:9"})
    assert gw.returncode != ExitCode.USAGE_ERROR


def test_a_temperature_the_provider_refuses_is_a_load_error_at_its_key(tmp_path: Path) -> None:
    """Anthropic takes 0..1: a juror at 1.2 used to get a 400 while the jury passed on the
    others."""
    path = tmp_path / "suite.yml"
    path.write_text(judged("""
          llm-jury:
            rubric: "names the tag"
            repetitions: 2
            temperature: 1.2
            jurors: [{ model: gpt-4o }, { model: claude-haiku-4-5 }]"""), encoding="utf-8")
    r = cli("run", path, "--no-cache", env={"ANTHROPIC_API_KEY": "k", "OPENAI_API_KEY": "k"})
    assert r.returncode == ExitCode.USAGE_ERROR, r.stdout + r.stderr
    lines = [x for x in r.stderr.splitlines() if "temperature 1.2" in x]
    assert len(lines) == 1 and f"{path}:15:" in lines[0] and "llm-jury.temperature" in lines[0]
    assert "outside what anthropic accepts (0..1) for `claude-haiku-4-5`" in lines[0]
    checked = cli("validate", path, env={"ANTHROPIC_API_KEY": "k"})  # load time, no run
    assert checked.returncode == ExitCode.USAGE_ERROR
    assert lines[0].removeprefix("error: ") in checked.stderr
