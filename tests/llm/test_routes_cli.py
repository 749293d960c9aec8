"""Judges, juries, evals and agents on the routes users take besides the four direct APIs, each
through the CLI as a user reaches it (the variables litellm documents, pointed at the route's
loopback stand-in in `support.providers`): the verdicts, the cost each route bills or the price
table gives (unknown where neither does), a cut final agent turn failing, a refused one failing
with the route's reason; and with no stand-in running and no credentials, the recorded agent
turns replay byte for byte."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.judge_server import Fault
from support.providers.base import StandIn
from support.providers.bedrock import BedrockStandIn
from support.providers.ollama import OllamaStandIn
from support.providers.openai_routes import AzureStandIn, OpenRouterStandIn, VLLMStandIn
from support.providers.vertex import VertexStandIn
from support.route_suite import (
    AGENTS,
    check_verdicts,
    files,
    route_suite,
    rows,
    run_route,
    script_route,
)

from mcptest.exit_codes import ExitCode
from mcptest.llm.price_table import price_table

pytestmark = pytest.mark.slow  # the example server, litellm, a dozen model calls per run


@dataclass(frozen=True)
class Case:
    make: Callable[[], StandIn]
    models: tuple[str, str, str]
    """(judge, second juror, agent) as the route's users write them."""
    wire: tuple[str, str, str]
    """The same as the stand-in receives them."""
    refusal: str | None
    """The reason a refused turn reports; None: the route cannot refuse on the wire."""


CASES = {
    "azure": Case(AzureStandIn, ("azure/gpt-4o", "azure/gpt-4o-mini", "azure/gpt-4.1-mini"),
                  ("gpt-4o", "gpt-4o-mini", "gpt-4.1-mini"), "content_filter"),
    "openrouter": Case(OpenRouterStandIn, (
        "openrouter/openai/gpt-4o", "openrouter/anthropic/claude-sonnet-4.5",
        "openrouter/google/gemini-2.5-flash"), (
        "openai/gpt-4o", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-flash"),
        "content_filter"),
    "vllm": Case(lambda: VLLMStandIn(("Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct")),
                 ("hosted_vllm/Qwen/Qwen3-8B", "hosted_vllm/meta-llama/Llama-3.1-8B-Instruct",
                  "hosted_vllm/Qwen/Qwen3-8B"),
                 ("Qwen/Qwen3-8B", "meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen3-8B"), None),
    "ollama_chat": Case(lambda: OllamaStandIn(("llama3.1", "qwen3:8b")), (
        "ollama_chat/llama3.1", "ollama_chat/qwen3:8b", "ollama_chat/qwen3:8b"),
        ("llama3.1", "qwen3:8b", "qwen3:8b"), None),
    "ollama": Case(lambda: OllamaStandIn(("llama3.1", "qwen3:8b")), (
        "ollama/llama3.1", "ollama/qwen3:8b", "ollama/qwen3:8b"),
        ("llama3.1", "qwen3:8b", "qwen3:8b"), None),
    "bedrock": Case(BedrockStandIn, (
        "bedrock/amazon.nova-pro-v1:0", "bedrock/amazon.nova-lite-v1:0",
        "bedrock/amazon.nova-micro-v1:0"),
        ("amazon.nova-pro-v1:0", "amazon.nova-lite-v1:0", "amazon.nova-micro-v1:0"),
        "content_filter"),  # litellm's word for guardrail_intervened
    "vertex_ai": Case(VertexStandIn, (
        "vertex_ai/gemini-2.5-flash", "vertex_ai/gemini-2.5-flash-lite",
        "vertex_ai/gemini-2.0-flash"),
        ("gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.0-flash"), "content_filter"),
}


def expected_cost(name: str, s: StandIn) -> float | None:
    """What the run should report: the route's own bill, the price table's, or unknown."""
    if isinstance(s, OpenRouterStandIn):
        return s.cost_billed()
    if isinstance(s, VLLMStandIn | OllamaStandIn):  # no price listed for qwen3:8b
        return None
    table = price_table()
    total = 0.0
    for model, p, c in s.billed:
        entry = table.get(f"{name}/{model}") or table[model]
        total += p * entry["input_cost_per_token"] + c * entry["output_cost_per_token"]
    return total


@pytest.mark.parametrize("name", sorted(CASES))
def test_judge_jury_eval_and_agents_then_a_replay_with_no_stand_in(name: str,
                                                                   tmp_path: Path) -> None:
    case = CASES[name]
    if name == "vertex_ai":  # litellm reaches Vertex through google-auth: the `vertex` extra
        pytest.importorskip("google.auth", reason="`make .venv/.dev-installed` installs it")
    judge, juror, agent = case.wire
    base = {"MCPTEST_PYTHON": sys.executable}
    text = route_suite(*case.models)
    with case.make() as s:
        env = s.env_with(s.key_file(tmp_path)) if isinstance(s, VertexStandIn) else s.env()
        script_route(s, judge, juror, agent, refusal=None if case.refusal else Fault.text(
            "I'm sorry, I can't help with that."))
        r, rep = run_route(tmp_path, text, {**env, **base}, "--models", "record")
        assert s.problems == [], s.problems
        assert getattr(s, "unsigned", []) == []  # every request signed as AWS checks it
        assert getattr(s, "grants", []) == []  # every token grant signed by the key file
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    by = rows(rep)
    if case.refusal is None:  # text, graded like any answer: its regex misses it
        assert by["agent is refused"]["status"] == "failed", {n: by[n].get("message") for n in AGENTS}
        assert by["agent is refused"]["response"]["conversation"]["stop"] == "final"
        cut = by["agent is cut"]
        assert cut["status"] == "error" and "turn 2 cut at max_tokens" in cut["message"], json.dumps(cut)[:3000]
    else:
        by = check_verdicts(rep)
        assert f"({case.refusal})" in by["agent is refused"]["message"]
    assert by["agent finishes"]["status"] == "passed"
    assert {m for m, _, _ in s.billed} == set(case.wire)
    cost = expected_cost(name, s)
    summary = rep["summary"]
    if cost is None:  # unpriced and unbilled: never a known $0
        assert all(not t["cost_known"] for t in rep["tests"] if t["name"].startswith(AGENTS))
        assert by["agent finishes"]["response"]["conversation"]["cost_usd"] is None
    else:
        assert summary["cost_usd"] == pytest.approx(cost, abs=1e-6) and cost > 0
        assert all(t["cost_known"] for t in rep["tests"])
    recorded = files(tmp_path / "cassettes")
    assert len(recorded) == 5, sorted(recorded)  # the judged test, the eval, three agents
    # no stand-in, no credentials: every agent turn answered from its cassette
    r2, rep2 = run_route(tmp_path, text, base, "--models", "replay")
    assert r2.returncode == ExitCode.TESTS_FAILED, r2.stdout + r2.stderr
    again = rows(rep2)
    for n in AGENTS:
        assert again[n]["status"] == by[n]["status"], again[n]
        assert again[n].get("message") == by[n].get("message")
    assert files(tmp_path / "cassettes") == recorded
    assert rep2["summary"]["cassettes"]["replayed"] > 0
    assert rep2["summary"]["cassettes"]["recorded"] == 0
