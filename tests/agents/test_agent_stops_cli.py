"""An agent's final turn is read with its stop reason on the four direct APIs, through the CLI
as a user runs it (the provider's key and base-URL variable pointed at its stand-in): a turn cut
at the token limit is an error of the agent test naming the turn, a refused turn fails with the
provider's reason, and neither is graded as the final answer (each says "shipped", which the
test's regex wants). Mistral has no refusal on the wire (its refusals are text), so only its cut
is tried. OpenAI runs over both routes (the fast one and litellm). Each run records its model
cassettes, which then replay with no stand-in and no key: the same rows, the same bytes (the
stand-ins reject a tool-call id their provider would, so Mistral took back the recorded ids)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from support.judge_server import Fault
from support.providers import FAMILIES
from support.providers.openai_routes import VLLMStandIn
from support.route_suite import (
    check_verdicts,
    files,
    route_suite,
    rows,
    run_route,
    script_route,
)

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # the example server, litellm, four models per run

MODELS = {
    "anthropic": ("claude-haiku-4-5", "claude-sonnet-4-5", "claude-sonnet-4-5"),
    "openai": ("gpt-4o", "gpt-4o-mini", "gpt-4.1-mini"),
    "gemini": ("gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.5-flash-lite"),
    "mistral": ("mistral-small-latest", "codestral-latest", "mistral-large-latest"),
}
CASES = [("anthropic", ""), ("openai", "auto"), ("openai", "litellm"), ("gemini", ""),
         ("mistral", "")]
# (cut, refusal) as the route passes them on: litellm's word for Anthropic's `refusal` and
# Gemini's `SAFETY` is `content_filter` (it keeps no native reason for them)
REASON = {"anthropic": ("length", "content_filter"), "openai": ("length", "refusal"),
          "gemini": ("MAX_TOKENS", "content_filter"), "mistral": ("length", None)}


@pytest.mark.parametrize(("family", "via"), CASES,
                         ids=[f"{f}-{v}" if v else f for f, v in CASES])
def test_a_cut_or_refused_final_agent_turn_never_passes(family: str, via: str,
                                                        tmp_path: Path) -> None:
    judge, juror, agent = MODELS[family]
    with FAMILIES[family]() as s:
        # Mistral's refusal is plain text: an answer like any other, graded by the test
        refusal = Fault.text("I'm sorry, I can't help with that.") if family == "mistral" else None
        script_route(s, judge, juror, agent, refusal=refusal)
        env = {**s.env(), "MCPTEST_PYTHON": sys.executable,
               **({"MCPTEST_LLM_ROUTE": via} if via else {})}
        r, rep = run_route(tmp_path, route_suite(judge, juror, agent), env, "--models",
                           "record")
        assert s.problems == [], s.problems
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    cut_reason, refusal_reason = REASON[family]
    if family == "mistral":
        by = rows(rep)
        cut = by["agent is cut"]
        assert cut["status"] == "error" and "turn 2 cut at max_tokens" in cut["message"]
        assert by["agent is refused"]["status"] == "failed"  # its regex misses the text
        assert by["agent finishes"]["status"] == "passed"
    else:
        by = check_verdicts(rep)
        refused = by["agent is refused"]
        assert f"({refusal_reason})" in refused["message"], refused["message"]
        if family != "gemini":  # Gemini's SAFETY carries no text
            assert refused["message"].endswith(": checkout v2.31.4 shipped."), refused["message"]
    cut = by["agent is cut"]
    assert f"the provider said {cut_reason}" in cut["message"], cut["message"]
    assert cut["gap"] == "transport" and "raise judge.max_tokens" in cut["message"]
    # a cut answer was billed: its turns cost what the stand-in billed, as any other's
    assert cut["cost_usd"] > 0 and cut["cost_known"] is True
    assert "turn 2 cut at max_tokens" in r.stdout
    recorded = files(tmp_path / "cassettes")
    r2, rep2 = run_route(tmp_path, route_suite(judge, juror, agent),
                         {"MCPTEST_PYTHON": sys.executable}, "--models", "replay")
    assert r2.returncode == ExitCode.TESTS_FAILED, r2.stdout + r2.stderr
    again = rows(rep2)
    for name, row in by.items():
        assert (again[name]["status"], again[name].get("message")) == (
            row["status"], row.get("message")), again[name]
    assert files(tmp_path / "cassettes") == recorded and len(recorded) == 5


def test_a_final_answer_whose_route_gives_no_stop_reason_is_never_a_pass(
        tmp_path: Path) -> None:
    """An OpenAI-compatible server that answers `finish_reason: null`, reached as a gateway
    (the fast route): a tool-call turn goes on, the final answer is `unknown`, an error."""
    with VLLMStandIn() as s:
        s.finish_reason = False
        script_route(s, "judge-m", "juror-m", "agent-m")
        env = {"MCPTEST_JUDGE_BASE_URL": s.base_url, "MCPTEST_PYTHON": sys.executable}
        r, rep = run_route(tmp_path, route_suite("judge-m", "juror-m", "agent-m"), env)
        assert s.problems == [], s.problems
    ok = rows(rep)["agent finishes"]
    assert ok["status"] == "error", ok
    assert ok["response"]["conversation"]["stop"] == "unknown"
    assert ok["response"]["tool_calls"][0]["name"] == "release_note"  # the call turn went on
    assert "turn 2: the route gave no stop reason" in ok["message"], ok["message"]
    assert r.returncode == ExitCode.TESTS_FAILED
