"""Model resolution and endpoint routing (no network)."""

from __future__ import annotations

from mcptest.llm.routing import GATEWAY_PLACEHOLDER_KEY, Route, Unroutable, resolve_model, route
from mcptest.suite.models import JudgeDefaults


def test_resolution_order() -> None:
    d = JudgeDefaults(model="suite-model")
    env = {"MCPTEST_JUDGE_MODEL": "env-model", "OPENAI_API_KEY": "sk-x"}
    assert resolve_model("own", d, env) == "own"
    assert resolve_model(None, d, env) == "suite-model"
    assert resolve_model(None, None, env) == "env-model"
    assert resolve_model(None, None, {"OPENAI_API_KEY": "k"}) == "openai/gpt-4o-mini"
    keys = {"MISTRAL_API_KEY": "k", "GEMINI_API_KEY": "k"}
    assert resolve_model(None, None, keys) == "gemini/gemini-2.5-flash"
    assert resolve_model(None, None, {"ANTHROPIC_API_KEY": ""}) is None


def test_gateway_passes_model_names_through() -> None:
    env = {"MCPTEST_JUDGE_BASE_URL": "http://gw/v1/", "MCPTEST_JUDGE_API_KEY": "gk"}
    r = route("anthropic/claude-haiku-4-5", None, None, env)
    assert isinstance(r, Route) and r.gateway
    assert r.litellm_model == "hosted_vllm/anthropic/claude-haiku-4-5"
    assert r.api_base == "http://gw/v1" and r.api_key == "gk"
    assert "gk" not in repr(r) and "api_key" not in r.model_dump()


def test_juror_base_url_beats_gateway_and_needs_no_key() -> None:
    r = route("m", "http://juror/v1", None, {"MCPTEST_JUDGE_BASE_URL": "http://gw/v1"})
    assert isinstance(r, Route) and r.api_base == "http://juror/v1"
    assert r.api_key == GATEWAY_PLACEHOLDER_KEY


def test_direct_provider_needs_its_key() -> None:
    assert isinstance(route("gpt-4o", None, None, {}), Unroutable)
    r = route("gpt-4o", None, None, {"OPENAI_API_KEY": "sk-1"})
    assert isinstance(r, Route) and r.api_key == "sk-1" and not r.gateway
    missing = route("claude-haiku-4-5", None, None, {"OPENAI_API_KEY": "sk-1"})
    assert isinstance(missing, Unroutable) and "ANTHROPIC_API_KEY" in missing.reason


def test_nothing_configured_is_unroutable() -> None:
    r = route(None, None, None, {})
    assert isinstance(r, Unroutable) and r.model is None
