"""One request to one model through litellm, and what we keep of the answer.

The only module that calls `litellm.acompletion`: litellm's exceptions become `ProviderError`s
of our own tree here (timeout, rate limit with its Retry-After, server, transport, rejected),
so retries and reports never depend on litellm's class names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mcptest.errors import ProviderError
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
    resp = await acompletion(litellm, kwargs)
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


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    arguments: str
    """The raw JSON text the model produced (parsed by the caller; may be invalid)."""


@dataclass(frozen=True)
class ChatTurn:
    """One answer of an agent model: text and/or tool calls, and what it used."""

    content: str | None
    tool_calls: list[ToolCall]
    prompt_tokens: int
    completion_tokens: int
    reported_cost: float | None


async def send_chat(litellm: Any, route: Route, messages: list[dict[str, Any]],
                    tools: list[dict[str, Any]], *, timeout: float, max_tokens: int,
                    temperature: float) -> ChatTurn:
    """One tool-calling request (no retries here: the client retries)."""
    kwargs: dict[str, Any] = {
        "model": route.litellm_model, "messages": messages, "timeout": timeout,
        "max_tokens": max_tokens, "temperature": temperature, "num_retries": 0,
    }
    if tools:
        kwargs["tools"] = tools
    if route.api_base:
        kwargs["api_base"] = route.api_base
    if route.api_key:
        kwargs["api_key"] = route.api_key
    resp = await acompletion(litellm, kwargs)
    usage = getattr(resp, "usage", None)
    message = resp.choices[0].message
    reported = getattr(usage, "cost", None)
    return ChatTurn(
        content=getattr(message, "content", None),
        tool_calls=[ToolCall(id=str(getattr(tc, "id", "") or f"call_{k}"),
                             name=str(tc.function.name), arguments=tc.function.arguments or "{}")
                    for k, tc in enumerate(getattr(message, "tool_calls", None) or [])],
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
        reported_cost=float(reported) if isinstance(reported, int | float) else None,
    )


def count_prompt_tokens(litellm: Any, model: str, messages: list[dict[str, str]]) -> int | None:
    try:
        return int(litellm.token_counter(model=model, messages=messages))
    except Exception:
        return None


def _retry_after(exc: BaseException) -> float | None:
    headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        headers = getattr(getattr(exc, "response", None), "headers", None)
    try:
        value = headers.get("retry-after") or headers.get("Retry-After") if headers else None
    except AttributeError:
        return None
    try:
        return None if value is None else max(0.0, float(value))
    except ValueError:
        return None  # an HTTP date: our own backoff applies


def provider_error(exc: BaseException, litellm: Any) -> ProviderError:
    """litellm's (and the OpenAI SDK's) exception as one of ours."""
    import openai  # already loaded with litellm; some routes raise its exceptions unwrapped

    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    text = f"{type(exc).__name__}: {exc}"[:300]
    if isinstance(exc, litellm.Timeout | openai.APITimeoutError | TimeoutError):
        return ProviderError("timeout", "timeout", status=status)
    if isinstance(exc, litellm.RateLimitError) or status == 429:
        return ProviderError("rate_limit", "rate limited (429)", status=429,
                             retry_after=_retry_after(exc))
    if status is not None and status >= 500:
        return ProviderError("server", f"server error ({status})", status=status,
                             retry_after=_retry_after(exc))
    if isinstance(exc, litellm.APIConnectionError | litellm.ServiceUnavailableError
                  | openai.APIConnectionError | ConnectionError | OSError):
        return ProviderError("transport", text, status=status)
    if status is not None:
        return ProviderError("client", f"request rejected ({status}): {exc}"[:300],
                             status=status)
    return ProviderError("client", text)


async def acompletion(litellm: Any, kwargs: dict[str, Any]) -> Any:
    """`litellm.acompletion` with its failures mapped into our error tree."""
    try:
        return await litellm.acompletion(**kwargs)
    except Exception as e:
        raise provider_error(e, litellm) from e
