"""Each route's faults in its own wire format, through the judge engine: a cut answer is never
graded (not even on litellm's `ollama/` route, which hides Ollama's `done_reason`), a refusal
abstains where the route can refuse, a server error keeps the status the route sent (Bedrock's
500 stays 500), a 429 is retried, and a 400 that says the JSON schema could not be compiled is
a rejected format, so a weaker one is tried."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.judge_once import judge_once as judge
from support.judge_server import DRAFT_THEN_CUT, Fault, Verdict
from support.providers.base import StandIn
from support.providers.bedrock import BedrockStandIn
from support.providers.ollama import OllamaStandIn
from support.providers.openai_routes import AzureStandIn, OpenRouterStandIn, VLLMStandIn
from support.providers.vertex import VertexStandIn

pytestmark = pytest.mark.slow  # loopback servers and the litellm import

ROUTES = {  # route -> (stand-in, model as written, as the stand-in sees it, refusal reason)
    "azure": (AzureStandIn, "azure/gpt-4o", "gpt-4o", "content_filter"),
    "openrouter": (OpenRouterStandIn, "openrouter/openai/gpt-4o", "openai/gpt-4o",
                   "content_filter"),
    "vllm": (VLLMStandIn, "hosted_vllm/Qwen/Qwen3-8B", "Qwen/Qwen3-8B", None),
    "ollama_chat": (OllamaStandIn, "ollama_chat/llama3.1", "llama3.1", None),
    "ollama": (OllamaStandIn, "ollama/llama3.1", "llama3.1", None),
    "bedrock": (BedrockStandIn, "bedrock/amazon.nova-lite-v1:0", "amazon.nova-lite-v1:0",
                "content_filter"),
    "vertex_ai": (VertexStandIn, "vertex_ai/gemini-2.5-flash", "gemini-2.5-flash",
                  "content_filter"),
}


@pytest.fixture(params=sorted(ROUTES))
def route(request: pytest.FixtureRequest, tmp_path: Path
          ) -> Iterator[tuple[StandIn, dict[str, str], str, str, str | None]]:
    name = request.param
    make, model, wire, refusal = ROUTES[name]
    if name == "vertex_ai":
        pytest.importorskip("google.auth", reason="`make .venv/.dev-installed` installs it")
    with make() as s:
        env = s.env_with(s.key_file(tmp_path)) if isinstance(s, VertexStandIn) else s.env()
        saved = dict(os.environ)
        os.environ.update(env)  # litellm reads cloud credentials from the process environment
        try:
            yield s, env, model, wire, refusal
        finally:
            os.environ.clear()
            os.environ.update(saved)


@pytest.mark.anyio
async def test_each_route_fault_in_its_own_form(
        route: tuple[StandIn, dict[str, str], str, str, str | None]) -> None:
    s, env, model, wire, refusal = route
    s.script(wire, Fault.truncated(DRAFT_THEN_CUT))  # quotes a whole draft verdict of 1.0
    o = await judge(env, model, structured=False)
    assert (o.status, o.error_kind, o.score) == ("judge_error", "truncated", None), o.message
    assert o.message is not None and o.message.startswith("answer cut at max_tokens")

    s.script(wire, Fault.refusal("I can't grade that.", field=True))
    o = await judge(env, model)
    if refusal is None:  # a refusal is text on this route: read as an unparseable answer
        assert o.status in ("abstained", "judge_error"), o
    else:
        assert o.status == "abstained" and o.score is None, o

    s.script(wire, Fault.server_error(500))
    o = await judge(env, model, tries=2)
    assert o.status == "judge_error" and o.error_kind == "server", o
    assert o.message is not None and o.message.startswith("server error (500"), o.message

    s.script(wire, [Fault.rate_limit(0.01), Verdict(score=0.6)])
    o = await judge(env, model)
    assert (o.status, o.score, o.requests_sent) == ("verdict", 0.6, 2), o

    s.script(wire, [Fault.rejected("failed to compile JSON schema for the response format"),
                    Verdict(score=0.7)])
    o = await judge(env, model)
    assert (o.status, o.score, o.requests_sent) == ("verdict", 0.7, 2), o
    assert s.problems == [], s.problems
