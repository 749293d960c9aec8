"""Which model judges, and where its request goes.

Model: the assertion's (or juror's) `model`, else the suite's `judge.model`, else
`MCPTEST_JUDGE_MODEL`, else the default model of the first provider whose key is set
(`DEFAULT_MODELS`). Endpoint: the juror's/assertion's `base_url`, else the suite's
`judge.base_url`, else `MCPTEST_JUDGE_BASE_URL`; a base URL means an OpenAI-compatible endpoint
that receives the model name unchanged (litellm gets `hosted_vllm/<name>`, which it strips back
to `<name>` in the request body: its plain OpenAI-compatible HTTP route, which skips the OpenAI
SDK's per-request transform and costs about 2 ms less CPU per call than `openai/<name>`).
Without an endpoint the provider's own key must be in the
environment we were given; otherwise the judge is unroutable and the assertion is deferred.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import BaseModel, ConfigDict, Field

from mcptest.suite.models import JudgeDefaults

DEFAULT_MODELS: tuple[tuple[str, str], ...] = (
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("GEMINI_API_KEY", "gemini/gemini-2.5-flash"),
    ("MISTRAL_API_KEY", "mistral/mistral-small-latest"),
)
"""Provider key → the model used when only that key is set (cheap, JSON-capable)."""

_PROVIDER_KEY: dict[str, str] = {
    "anthropic": "ANTHROPIC_API_KEY", "openai": "OPENAI_API_KEY", "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY", "groq": "GROQ_API_KEY", "deepseek": "DEEPSEEK_API_KEY",
    "xai": "XAI_API_KEY", "openrouter": "OPENROUTER_API_KEY", "together_ai": "TOGETHERAI_API_KEY",
    "cohere": "COHERE_API_KEY", "fireworks_ai": "FIREWORKS_API_KEY",
}
_BARE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("claude", "anthropic"), ("gpt-", "openai"), ("o1", "openai"), ("o3", "openai"),
    ("o4", "openai"), ("chatgpt", "openai"), ("gemini", "gemini"), ("mistral", "mistral"),
    ("codestral", "mistral"), ("open-mistral", "mistral"),
)
_KEYLESS = frozenset({"ollama", "ollama_chat", "lm_studio", "hosted_vllm"})
GATEWAY_PLACEHOLDER_KEY = "mcptest-no-key"
GATEWAY_PREFIX = "hosted_vllm/"
"""litellm's generic OpenAI-compatible route (any gateway, not only vLLM)."""
"""Sent to a base URL when MCPTEST_JUDGE_API_KEY is unset (local servers need none)."""


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    return value if value else None


def provider_of(model: str) -> str | None:
    """The provider litellm would pick, from the prefix or the bare name (None if unsure)."""
    if "/" in model:
        return model.split("/", 1)[0].lower()
    low = model.lower()
    return next((p for prefix, p in _BARE_PREFIXES if low.startswith(prefix)), None)


def resolve_model(model: str | None, defaults: JudgeDefaults | None,
                  env: Mapping[str, str]) -> str | None:
    """The judge model for one assertion or juror, or None when nothing names one."""
    if model:
        return model
    if defaults is not None and defaults.model:
        return defaults.model
    if named := _get(env, "MCPTEST_JUDGE_MODEL"):
        return named
    return next((m for key, m in DEFAULT_MODELS if _get(env, key)), None)


class Route(BaseModel):
    """How to reach one model. `api_key` never appears in repr or dumps."""

    model_config = ConfigDict(frozen=True)

    model: str
    """The model's own name: what reports show and what prices are looked up by."""
    litellm_model: str
    api_base: str | None = None
    api_key: str | None = Field(default=None, repr=False, exclude=True)
    gateway: bool = False


class Unroutable(BaseModel):
    model_config = ConfigDict(frozen=True)

    model: str | None
    reason: str


def route(model: str | None, base_url: str | None, defaults: JudgeDefaults | None,
          env: Mapping[str, str]) -> Route | Unroutable:
    """Resolve the model and its endpoint; `Unroutable` means the call would be deferred."""
    name = resolve_model(model, defaults, env)
    endpoint = base_url or (defaults.base_url if defaults else None) or _get(
        env, "MCPTEST_JUDGE_BASE_URL")
    if name is None:
        return Unroutable(model=None, reason=(
            "no judge model: set `model`, the suite's judge.model, MCPTEST_JUDGE_MODEL or a "
            "provider API key"))
    if endpoint:
        gateway_key = _get(env, "MCPTEST_JUDGE_API_KEY") or GATEWAY_PLACEHOLDER_KEY
        return Route(model=name, litellm_model=GATEWAY_PREFIX + name,
                     api_base=endpoint.rstrip("/"), api_key=gateway_key, gateway=True)
    provider = provider_of(name)
    if provider in _KEYLESS:
        return Route(model=name, litellm_model=name)
    if provider is not None and provider not in _PROVIDER_KEY:
        # bedrock/, vertex_ai/, azure/ …: litellm reads that provider's own credentials.
        return Route(model=name, litellm_model=name)
    key_name = _PROVIDER_KEY.get(provider or "")
    if key_name is None:
        return Unroutable(model=name, reason=(
            f"cannot tell which API key {name!r} needs: prefix it with its provider "
            "(e.g. `openai/`) or set MCPTEST_JUDGE_BASE_URL"))
    key = _get(env, key_name)
    if key is None:
        return Unroutable(model=name, reason=(
            f"no {key_name} and no MCPTEST_JUDGE_BASE_URL for judge {name!r}"))
    if provider == "openai":  # litellm honours these for OpenAI; so does the fast route
        base = _get(env, "OPENAI_BASE_URL") or _get(env, "OPENAI_API_BASE")
        return Route(model=name, litellm_model=name, api_key=key,
                     api_base=base.rstrip("/") if base else None)
    return Route(model=name, litellm_model=name, api_key=key)
