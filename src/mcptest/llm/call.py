"""One request to one model through litellm, and what we keep of the answer.

The only module that calls `litellm.acompletion`: litellm's exceptions become `ProviderError`s
of our own tree here (timeout, rate limit with its Retry-After, server, transport, rejected),
so retries and reports never depend on litellm's class names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.errors import ProviderError
from mcptest.llm.prompt import VERDICT_SCHEMA
from mcptest.llm.provider_errors import (
    body_in,
    chain_of,
    failure,
    header_hint,
    headers_of,
    read_body,
    sent_status,
    unformed,
    unreachable,
)

if TYPE_CHECKING:
    from mcptest.llm.routing import Route


@dataclass(frozen=True)
class Reply:
    """A model's answer as every route returns it, with its token counts and why it stopped."""

    content: str | None
    refusal: str | None
    prompt_tokens: int
    completion_tokens: int
    reported_cost: float | None
    """A cost the endpoint itself reported (some gateways do), else None."""
    stop: str | None = None
    """`length` (cut at the token limit), `refusal` (the provider refused), else None."""
    stop_reason: str | None = None
    """The provider's own word for why it stopped (`max_tokens`, `SAFETY`, `model_length` …)."""
    version: str | None = None
    """The model version the provider says served it (OpenAI's response `model`, with
    ` / system_fingerprint` when it sends one); None when it says nothing."""


def served_version(model: object, fingerprint: object) -> str | None:
    """`model / fingerprint` from what a response says, or None when it names no model."""
    if not isinstance(model, str) or not model:
        return None
    return f"{model} / {fingerprint}" if isinstance(fingerprint, str) and fingerprint else model


_CUT = frozenset({"length", "max_tokens", "MAX_TOKENS", "model_length",
                  "model_context_window_exceeded"})
_REFUSED = frozenset({"content_filter", "refusal", "SAFETY", "RECITATION", "BLOCKLIST",
                      "PROHIBITED_CONTENT", "SPII", "guardrail_intervened"})
HIDDEN_STOP = frozenset({"ollama"})
"""Routes whose answer litellm always marks `stop` (its `ollama/` generate route drops Ollama's
`done_reason`): a cut is read from the tokens instead (`hidden_stop`)."""


def stop_of(finish: Any, native: Any = None) -> tuple[str | None, str | None]:
    """(`length` | `refusal` | None, the provider's own reason) from an answer's finish reason
    and, through litellm, the provider's native one (litellm reads Mistral's `model_length` as
    `stop`)."""
    reasons = [r for r in (native, finish) if isinstance(r, str) and r]
    if any(r in _CUT for r in reasons):
        return "length", reasons[0]
    if any(r in _REFUSED for r in reasons):
        return "refusal", reasons[0]
    return None, reasons[0] if reasons else None


def hidden_stop(route: Route, completion_tokens: int, max_tokens: int
                ) -> tuple[str | None, str | None] | None:
    """The stop of an answer on a route that hides it, or None on other routes. Ollama stops
    with `done_reason: length` exactly when `eval_count` reaches `num_predict` (litellm's
    `max_tokens`), so an answer that used them all was cut; with no token count the stop is
    `unknown` (never read as a finished answer)."""
    if route.provider not in HIDDEN_STOP:
        return None
    if completion_tokens <= 0:
        return "unknown", None
    if completion_tokens >= max_tokens:
        return "length", "length (eval_count reached max_tokens; litellm's ollama/ route hides "\
            "done_reason)"
    return None, "stop"


def response_format(litellm: Any, route: Route, structured: bool) -> dict[str, Any] | None:
    """Structured output when litellm knows the model supports it, else JSON mode."""
    if not structured:
        return None
    try:
        native = (not route.gateway) and bool(litellm.supports_response_schema(
            model=route.litellm_model))
    except Exception:
        native = False
    if native:
        return {"type": "json_schema",
                "json_schema": {"name": "verdict", "schema": VERDICT_SCHEMA, "strict": True}}
    return {"type": "json_object"}


async def send(litellm: Any, route: Route, messages: list[dict[str, str]], *, timeout: float,
               max_tokens: int, temperature: float, fmt: dict[str, Any] | None,
               thinking: int = 0) -> Reply:
    """Send once (no retries here: `num_retries=0`, the caller retries). `thinking` tokens are
    allowed on top of `max_tokens`: a Gemini model gets them as its thinking budget, an OpenAI
    reasoning model low effort (docs/judges.md, "Thinking models")."""
    kwargs: dict[str, Any] = {
        "model": route.litellm_model, "messages": messages, "timeout": timeout,
        "max_tokens": max_tokens + thinking, "temperature": temperature, "num_retries": 0,
    }
    if thinking and route.provider == "gemini":
        kwargs["thinking"] = {"type": "enabled", "budget_tokens": thinking}
    elif thinking:
        kwargs["reasoning_effort"] = "low"
    if route.api_base:
        kwargs["api_base"] = route.api_base
    if route.api_key:
        kwargs["api_key"] = route.api_key
    if fmt is not None:
        kwargs["response_format"] = fmt
    resp = await acompletion(litellm, kwargs, route)
    choice = resp.choices[0]
    message = choice.message
    usage = getattr(resp, "usage", None)
    # Only a cost the endpoint itself reported: litellm's own `response_cost` is its price
    # table again (which `lookup_price` already read) and 0.0 for a model it does not know.
    reported = getattr(usage, "cost", None)
    refusal = refusal_of(message)
    native = (getattr(choice, "provider_specific_fields", None) or {}).get("native_finish_reason")
    stop, reason = stop_of(getattr(choice, "finish_reason", None), native)
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    stop, reason = hidden_stop(route, completion, max_tokens + thinking) or (stop, reason)
    return Reply(
        content=getattr(message, "content", None),
        refusal=refusal if isinstance(refusal, str) else None,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=completion,
        reported_cost=float(reported) if isinstance(reported, int | float) else None,
        stop=stop, stop_reason=reason,
        version=served_version(getattr(resp, "model", None),
                               getattr(resp, "system_fingerprint", None)),
    )


@dataclass(frozen=True)
class ToolCall:
    """One tool call a model asked for in its answer."""

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
    stop: str | None = None
    """`length` (cut at the token limit), `refusal`, `unknown` (the route does not say), else
    None (a finished answer or a tool-call turn)."""
    stop_reason: str | None = None
    """The provider's own word for why it stopped (`max_tokens`, `SAFETY`, `done_reason` …)."""
    refusal: str | None = None
    """The provider's refusal text, where it sends one apart from the content."""


def refusal_of(message: Any) -> str | None:
    """The refusal text of a litellm message: OpenAI's `refusal` field, else what litellm keeps
    of a provider's own (`provider_specific_fields`)."""
    refusal = getattr(message, "refusal", None)
    if not refusal:
        refusal = (getattr(message, "provider_specific_fields", None) or {}).get("refusal")
    return refusal if isinstance(refusal, str) and refusal else None


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
    resp = await acompletion(litellm, kwargs, route)
    usage = getattr(resp, "usage", None)
    choice = resp.choices[0]
    message = choice.message
    reported = getattr(usage, "cost", None)
    native = (getattr(choice, "provider_specific_fields", None) or {}).get("native_finish_reason")
    finish = getattr(choice, "finish_reason", None)
    calls = [ToolCall(id=str(getattr(tc, "id", "") or f"call_{k}"),
                      name=str(tc.function.name), arguments=tc.function.arguments or "{}")
             for k, tc in enumerate(getattr(message, "tool_calls", None) or [])]
    completion = int(getattr(usage, "completion_tokens", 0) or 0)
    stop, reason = chat_stop(finish, native)
    if not calls:
        stop, reason = hidden_stop(route, completion, max_tokens) or (stop, reason)
    return ChatTurn(
        content=getattr(message, "content", None), tool_calls=calls,
        prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
        completion_tokens=completion,
        reported_cost=float(reported) if isinstance(reported, int | float) else None,
        stop=stop, stop_reason=reason, refusal=refusal_of(message),
    )


def chat_stop(finish: Any, native: Any = None) -> tuple[str | None, str | None]:
    """An agent turn's stop (`stop_of`), `unknown` when the route gave no finish reason."""
    stop, reason = stop_of(finish, native)
    if reason is None:
        return "unknown", None
    return stop, reason


def count_prompt_tokens(litellm: Any, model: str, messages: list[dict[str, str]]) -> int | None:
    try:
        return int(litellm.token_counter(model=model, messages=messages))
    except Exception:
        return None


def provider_error(exc: BaseException, litellm: Any, url: str | None = None) -> ProviderError:
    """litellm's (and the OpenAI SDK's) exception as one of ours, with the provider's status,
    words and retry hint (`mcptest.llm.provider_errors`)."""
    import httpx  # both already loaded with litellm; some routes raise their errors unwrapped
    import openai

    if (never_sent := unformed(exc) or unreachable(url, exc)) is not None:
        return never_sent
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    text = f"{type(exc).__name__}: {exc}"[:300]
    if isinstance(exc, litellm.Timeout | TimeoutError) or _caused_by(
            exc, (openai.APITimeoutError, httpx.TimeoutException)):
        return ProviderError("timeout", "timeout", status=status)
    if isinstance(exc, litellm.RateLimitError):
        status = 429
    # litellm wraps "no answer came" (a connection dropped after the request was written: the
    # SDK's or httpx's error) in a 500 InternalServerError: `transport`, billed its worst case
    if (isinstance(exc, litellm.APIConnectionError | litellm.ServiceUnavailableError
                   | ConnectionError | OSError) and status in (None, 500)
            and body_in(str(exc)) is None) or _caused_by(exc, (
                openai.APIConnectionError, httpx.NetworkError, httpx.RemoteProtocolError)):
        return ProviderError("transport", text, status=status)
    if status is None:
        return ProviderError("client", text)
    headers = headers_of(exc)
    status = sent_status(status, headers)
    hint = header_hint(lambda name: headers.get(name)) if headers is not None else None
    body = body_in(str(exc))
    f = read_body(body) if body is not None else read_body(str(exc).split(" - ", 1)[-1])
    return failure(status, f, hint)


def _caused_by(exc: BaseException, kind: tuple[type[BaseException], ...]) -> bool:
    """Whether `exc`, or what it was raised from, is a `kind`."""
    return any(isinstance(e, kind) for e in chain_of(exc))


async def acompletion(litellm: Any, kwargs: dict[str, Any], route: Route | None = None) -> Any:
    """`litellm.acompletion` with its failures mapped into our error tree."""
    try:
        return await litellm.acompletion(**kwargs)
    except Exception as e:
        raise provider_error(e, litellm, route.endpoint if route else None) from e
