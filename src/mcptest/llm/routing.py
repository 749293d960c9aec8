"""Which model judges, and where its request goes.

Model: the assertion's (or juror's) `model`, else the suite's `judge.model`, else
`MCPTEST_JUDGE_MODEL`, else the default model of the first provider whose key is set
(`DEFAULT_MODELS`). Endpoint: the juror's/assertion's `base_url`, else the suite's
`judge.base_url`, else `MCPTEST_JUDGE_BASE_URL`; a base URL means an OpenAI-compatible endpoint
that receives the model name unchanged (litellm gets `hosted_vllm/<name>`, which it strips back
to `<name>` in the request body: its plain OpenAI-compatible HTTP route, which skips the OpenAI
SDK's per-request transform and costs less CPU per call than `openai/<name>`;
docs/architecture.md, "Costs").
Without an endpoint the provider's own key must be in the environment we were given (otherwise
the judge is unroutable and the assertion is deferred); the request then goes to the provider,
or to the base URL its litellm variable names (`ANTHROPIC_API_BASE`, `GEMINI_API_BASE` …,
`mcptest.llm.providers`), passed to litellm explicitly so in-process runs and the cache key see
the same endpoint.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict, Field

from mcptest.llm import providers
from mcptest.llm.cloud_credentials import missing_credentials
from mcptest.llm.providers import KEYLESS, PROVIDERS, ambiguity, provider_of

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models import JudgeDefaults

__all__ = ["DEFAULT_MODELS", "GATEWAY_PLACEHOLDER_KEY", "GATEWAY_PREFIX", "Route", "Unroutable",
           "provider_of", "resolve_model", "route"]

DEFAULT_MODELS: tuple[tuple[str, str], ...] = (
    ("ANTHROPIC_API_KEY", "anthropic/claude-haiku-4-5"),
    ("OPENAI_API_KEY", "openai/gpt-4o-mini"),
    ("GEMINI_API_KEY", "gemini/gemini-2.5-flash"),
    ("MISTRAL_API_KEY", "mistral/mistral-small-latest"),
)
"""Provider key → the model used when only that key is set (cheap, JSON-capable)."""

GATEWAY_PLACEHOLDER_KEY = "mcptest-no-key"
"""Sent to a base URL when MCPTEST_JUDGE_API_KEY is unset (local servers need none)."""
GATEWAY_PREFIX = "hosted_vllm/"
"""litellm's generic OpenAI-compatible route (any gateway, not only vLLM)."""


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name)
    return value if value else None


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
    provider: str | None = None
    """The provider of a direct route (`anthropic`, `gemini` …); None for gateways."""

    @property
    def endpoint(self) -> str | None:
        """Where the request goes: the base URL, else the provider's default endpoint."""
        return self.api_base or providers.endpoint(self.provider)

    @property
    def price_name(self) -> str:
        """The name prices are looked up by first: the routed name (`gemini/…` for a bare
        Gemini name: the Gemini API's price, not Vertex AI's), the written one via a gateway."""
        return self.model if self.gateway else self.litellm_model


class Unroutable(BaseModel):
    model_config = ConfigDict(frozen=True)

    model: str | None
    reason: str
    api_base: str | None = None
    """The base URL it would have gone to (what a cached verdict is keyed by)."""


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
    if provider in KEYLESS:
        return Route(model=name, litellm_model=name, provider=provider)
    if provider is not None and provider not in PROVIDERS:
        # bedrock/, vertex_ai/, azure/ …: litellm reads that provider's own credentials.
        if (missing := missing_credentials(provider, env)) is not None:
            return Unroutable(model=name, reason=(
                f"no {provider} credentials for judge {name!r}: set {missing}"))
        return Route(model=name, litellm_model=name if "/" in name else f"{provider}/{name}",
                     provider=provider)
    if provider is None:
        return Unroutable(model=name, reason=ambiguity(name) or f"no provider for {name!r}")
    names = PROVIDERS[provider].keys
    key = next((k for n in names if (k := _get(env, n))), None)
    if key is None:
        return Unroutable(model=name, api_base=providers.base_url(provider, env), reason=(
            f"no {names[0]} and no MCPTEST_JUDGE_BASE_URL for judge {name!r}"))
    # A bare name gets its provider's prefix: litellm would send `gemini-2.5-flash` to
    # Vertex AI and `mistral-small-latest` nowhere (docs/judges.md, "Providers").
    routed = name if "/" in name else f"{provider}/{name}"
    return Route(model=name, litellm_model=routed, api_key=key,
                 api_base=providers.base_url(provider, env), provider=provider)
