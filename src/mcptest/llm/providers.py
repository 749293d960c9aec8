"""What mcptest knows of each provider it routes to directly: its key, the base-URL variables
litellm reads for it, its default endpoint, the temperatures it accepts, and which bare model
names are its (docs/judges.md, "Providers").

A bare name (`gemini-2.5-flash`) reaches litellm with its provider's prefix (`gemini/…`):
litellm alone would send a bare Gemini name to Vertex AI and a bare Mistral name nowhere. A bare
name no family here claims is never guessed: it is a load error naming the fix, with the
providers litellm's price table lists it under (read as data, once, only for such a name) as
the prefixes to choose from.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from mcptest.llm.price_table import price_table

if TYPE_CHECKING:
    from collections.abc import Mapping


@dataclass(frozen=True)
class Provider:
    """A model provider as mcptest reaches it: its key and base-URL variables, its endpoint."""

    name: str
    keys: tuple[str, ...]
    """Environment variables holding its API key, the first set wins."""
    bases: tuple[str, ...] = ()
    """The base-URL variables litellm reads for it (checked in litellm's source), first wins."""
    default_base: str | None = None
    """Where its requests go without a base URL (what an unreachable judge's message names)."""
    temperature: tuple[float, float] | None = None
    """The range its API accepts, from its reference (None: not checked)."""


PROVIDERS: dict[str, Provider] = {p.name: p for p in (
    Provider("anthropic", ("ANTHROPIC_API_KEY",), ("ANTHROPIC_API_BASE", "ANTHROPIC_BASE_URL"),
             "https://api.anthropic.com", (0.0, 1.0)),
    Provider("openai", ("OPENAI_API_KEY",), ("OPENAI_BASE_URL", "OPENAI_API_BASE"),
             "https://api.openai.com/v1", (0.0, 2.0)),
    Provider("gemini", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), ("GEMINI_API_BASE",),
             "https://generativelanguage.googleapis.com/v1beta", (0.0, 2.0)),
    Provider("mistral", ("MISTRAL_API_KEY",), ("MISTRAL_API_BASE",),
             "https://api.mistral.ai/v1", (0.0, 1.5)),
    Provider("groq", ("GROQ_API_KEY",), ("GROQ_API_BASE",), "https://api.groq.com/openai/v1"),
    Provider("deepseek", ("DEEPSEEK_API_KEY",), ("DEEPSEEK_API_BASE",),
             "https://api.deepseek.com"),
    Provider("xai", ("XAI_API_KEY",), ("XAI_API_BASE",), "https://api.x.ai/v1"),
    Provider("openrouter", ("OPENROUTER_API_KEY",), ("OPENROUTER_API_BASE",),
             "https://openrouter.ai/api/v1"),
    Provider("together_ai", ("TOGETHERAI_API_KEY",)),
    Provider("cohere", ("COHERE_API_KEY",), ("COHERE_API_BASE",)),
    Provider("fireworks_ai", ("FIREWORKS_API_KEY",), ("FIREWORKS_API_BASE",)),
)}

BARE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("claude", "anthropic"), ("gpt-", "openai"), ("o1", "openai"), ("o3", "openai"),
    ("o4", "openai"), ("chatgpt", "openai"), ("gemini", "gemini"), ("mistral", "mistral"),
    ("codestral", "mistral"), ("open-mistral", "mistral"), ("open-mixtral", "mistral"),
    ("magistral", "mistral"), ("ministral", "mistral"), ("devstral", "mistral"),
    ("pixtral", "mistral"), ("deepseek", "deepseek"), ("grok", "xai"),
)
"""Name starts each served by one provider's own API (the first four families are tested
against stand-ins of their wire formats, docs/judges.md)."""

REASONING = ("o1", "o3", "o4", "gpt-5")
"""OpenAI's reasoning models: `max_completion_tokens`, no `temperature`, thinking first."""
THINKING_TOKENS = 2048
"""What a thinking judge may spend thinking before its verdict, on top of `max_tokens`
(docs/judges.md, "Thinking models")."""
KEYLESS = frozenset({"ollama", "ollama_chat", "lm_studio", "hosted_vllm"})


@dataclass(frozen=True)
class Placement:
    """Where a model name goes: its provider, or None and the providers that list it."""

    provider: str | None
    candidates: tuple[str, ...] = ()


def _named(model: str) -> str | None:
    """The provider the name itself says: its prefix, or a bare family name's."""
    if "/" in model:
        return model.split("/", 1)[0].lower()
    low = model.lower()
    return next((p for prefix, p in BARE_PREFIXES if low.startswith(prefix)), None)


def place(model: str) -> Placement:
    """The provider of `model`, or the providers litellm's price table lists a bare name under."""
    named = _named(model)
    return Placement(named) if named is not None else _listed(model)


@lru_cache(maxsize=256)
def _listed(model: str) -> Placement:
    """A bare name no family claims: never guessed (litellm's table lists `mixtral-8x7b` under
    snowflake and `grok-3` under azure_ai), only the providers that list it, as suggestions."""
    return Placement(None, _bare_index().get(model.lower(), ()))


@lru_cache(maxsize=1)
def _bare_index() -> dict[str, tuple[str, ...]]:
    """Model name → the providers litellm's price table lists it under (`cerebras/…`, or an
    unprefixed entry's `litellm_provider`, `vertex_ai-language-models` read as `vertex_ai`)."""
    index: dict[str, set[str]] = {}
    for key, entry in price_table().items():
        if "/" in key:
            provider, name = key.split("/", 1)
        else:
            provider, name = str(entry.get("litellm_provider") or "").split("-", 1)[0], key
        if provider and "/" not in name:
            index.setdefault(name.lower(), set()).add(provider)
    return {name: tuple(sorted(found)) for name, found in index.items()}


def provider_of(model: str) -> str | None:
    """The provider a request for `model` goes to (None if unknown or ambiguous)."""
    return place(model).provider


def ambiguity(model: str) -> str | None:
    """Why `model` cannot be routed without a prefix or a base URL (None: it can)."""
    p = place(model)
    if p.provider is not None:
        return None
    if p.candidates:
        listed = " or ".join(f"`{c}/{model}`" for c in p.candidates[:4])
        return (f"model {model!r} does not say its provider, and litellm lists it under "
                f"{', '.join(p.candidates)}: write {listed}, or give a `base_url`")
    return (f"model {model!r} does not say its provider: write it with its provider's prefix "
            "(e.g. `groq/…`, `bedrock/…`), or give a `base_url`")


def key_names(provider: str) -> tuple[str, ...]:
    p = PROVIDERS.get(provider)
    return p.keys if p is not None else ()


def base_url(provider: str, env: Mapping[str, str]) -> str | None:
    """The provider's base URL from the variables litellm reads for it, if one is set."""
    p = PROVIDERS.get(provider)
    for name in p.bases if p is not None else ():
        if value := env.get(name):
            return value.rstrip("/")
    return None


def endpoint(provider: str | None) -> str | None:
    p = PROVIDERS.get(provider or "")
    return p.default_base if p is not None else None


def temperature_range(model: str) -> tuple[str, tuple[float, float]] | None:
    """(provider, accepted range) for a model whose provider documents one."""
    p = PROVIDERS.get(_named(model) or "")
    return (p.name, p.temperature) if p is not None and p.temperature is not None else None


def thinking_tokens(route: Any, model_cost: Mapping[str, Any]) -> int:
    """Tokens to allow for thinking before the answer: OpenAI's reasoning models always think,
    a Gemini model the price table marks `supports_reasoning` (2.5 and later) thinks unless
    told not to, and both count it against the output limit. Others: 0 (Anthropic thinks only
    when asked; a gateway's model is unknown)."""
    if route.gateway or route.provider not in ("openai", "gemini"):
        return 0
    name = route.litellm_model.split("/", 1)[1]
    if route.provider == "openai":
        return THINKING_TOKENS if name.lower().startswith(REASONING) else 0
    entry = model_cost.get(route.litellm_model) or model_cost.get(name)
    return THINKING_TOKENS if isinstance(entry, dict) and entry.get("supports_reasoning") else 0
