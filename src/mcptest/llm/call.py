"""One request to one judge through litellm, and what we keep of the answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcptest.llm.models import Route
from mcptest.llm.prompt import VERDICT_SCHEMA


@dataclass(frozen=True)
class Reply:
    content: str | None
    refusal: str | None
    prompt_tokens: int
    completion_tokens: int
    reported_cost: float | None
    """A cost the endpoint itself reported (some gateways do), else litellm's, else None."""


def response_format(litellm: Any, route: Route, structured: bool) -> dict[str, Any] | None:
    """Structured output when litellm knows the model supports it, else JSON mode."""
    if not structured:
        return None
    try:
        native = (not route.gateway) and bool(litellm.supports_response_schema(model=route.model))
    except Exception:
        native = False
    if native:
        return {"type": "json_schema",
                "json_schema": {"name": "verdict", "schema": VERDICT_SCHEMA, "strict": True}}
    return {"type": "json_object"}


async def send(litellm: Any, route: Route, messages: list[dict[str, str]], *, timeout: float,
               max_tokens: int, temperature: float, fmt: dict[str, Any] | None) -> Reply:
    """Send once (no retries here: `num_retries=0`, the caller retries)."""
    kwargs: dict[str, Any] = {
        "model": route.litellm_model, "messages": messages, "timeout": timeout,
        "max_tokens": max_tokens, "temperature": temperature, "num_retries": 0,
    }
    if route.api_base:
        kwargs["api_base"] = route.api_base
    if route.api_key:
        kwargs["api_key"] = route.api_key
    if fmt is not None:
        kwargs["response_format"] = fmt
    resp = await litellm.acompletion(**kwargs)
    message = resp.choices[0].message
    usage = getattr(resp, "usage", None)
    reported = getattr(usage, "cost", None)
    if not isinstance(reported, int | float):
        hidden = getattr(resp, "_hidden_params", None) or {}
        reported = hidden.get("response_cost") if not route.gateway else None
    refusal = getattr(message, "refusal", None)
    if not refusal:
        refusal = (getattr(message, "provider_specific_fields", None) or {}).get("refusal")
    return Reply(
        content=getattr(message, "content", None),
        refusal=refusal if isinstance(refusal, str) else None,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        reported_cost=float(reported) if isinstance(reported, int | float) else None,
    )


def count_prompt_tokens(litellm: Any, model: str, messages: list[dict[str, str]]) -> int | None:
    try:
        return int(litellm.token_counter(model=model, messages=messages))
    except Exception:
        return None
