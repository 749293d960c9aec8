"""The fast route: OpenAI-compatible endpoints over plain HTTP/1.1 (h11 on anyio's streams,
`llm/connections.py`), without importing litellm.

Any `base_url`/gateway and OpenAI itself speak the same `POST /chat/completions`; for them
`import litellm` and its per-call work buy nothing (docs/architecture.md, "Costs"). The official
`openai` SDK is a slow import and costs more CPU per call than plain httpx on the same seam, and
httpx's own models and httpcore's pool cost more than the one exchange the route needs
(docs/judges.md, "Which HTTP client"). Its failures become the same `ProviderError`s as
`mcptest.llm.call` makes of litellm's, so retries, budget and reports do not know which route
answered. Every other provider stays on litellm (`mcptest.llm.call`).

One `OpenAIRoute` per `ModelClient`: its keep-alive connections (`llm/connections.py`) are as
many as the run's judge concurrency lets be in flight.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from mcptest.errors import ProviderError
from mcptest.llm.call import ChatTurn, Reply, ToolCall, chat_stop, served_version, stop_of
from mcptest.llm.connections import Connections, HttpAnswer
from mcptest.llm.prompt import VERDICT_SCHEMA
from mcptest.llm.provider_errors import failure, header_hint, read_body
from mcptest.llm.providers import REASONING
from mcptest.version import __version__

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from mcptest.llm.routing import Route

ON_WIRE: ContextVar[Callable[[], None] | None] = ContextVar("mcptest_on_wire", default=None)
"""Called when the current task's request has been written (`ModelClient.first_sent`)."""
OPENAI_BASE = "https://api.openai.com/v1"
ROUTE_ENV = "MCPTEST_LLM_ROUTE"
"""`litellm` sends every call through litellm (the escape hatch, and how tests run both routes);
anything else (default `auto`) takes this route where it applies."""


def applies(r: Route, env: Mapping[str, str]) -> bool:
    """True when `r` is an OpenAI-compatible endpoint this route can reach directly."""
    if env.get(ROUTE_ENV, "auto").strip().lower() == "litellm" or not r.api_key:
        return False
    return r.gateway or r.provider == "openai"


def _native_name(r: Route) -> str:
    return r.model.split("/", 1)[1] if r.model.lower().startswith("openai/") else r.model


def openai_response_format(r: Route, model_cost: Mapping[str, Any],
                    structured: bool) -> dict[str, Any] | None:
    """Structured output where the price table says OpenAI's model supports it, else JSON mode
    (what `mcptest.llm.call.response_format` picks through litellm)."""
    if not structured:
        return None
    entry = model_cost.get(_native_name(r)) if not r.gateway else None
    if isinstance(entry, dict) and entry.get("supports_response_schema"):
        return {"type": "json_schema",
                "json_schema": {"name": "verdict", "schema": VERDICT_SCHEMA, "strict": True}}
    return {"type": "json_object"}


class OpenAIRoute:
    """Sends chat completions to one OpenAI-compatible endpoint per route, pooled per loop."""

    def __init__(self) -> None:
        self._connections = Connections()
        self._headers: dict[tuple[str, str], list[tuple[bytes, bytes]]] = {}
        """Per (base URL, key): the same for every request to it (`_headers`)."""

    async def aclose(self) -> None:
        """Close the connections of the current event loop (the others close with their loops)."""
        await self._connections.aclose()

    async def _post(self, r: Route, body: dict[str, Any], timeout: float) -> dict[str, Any]:
        base = (r.api_base or OPENAI_BASE).rstrip("/")
        if not base.isascii() or any(c.isspace() for c in base):
            raise ProviderError("client", "the judge's base URL has spaces or non-ASCII "
                                "characters: percent-encode them (and IDNA-encode a host)")
        # what httpx sent for `json=`: compact UTF-8, no NaN
        content = json.dumps(body, ensure_ascii=False, separators=(",", ":"),
                             allow_nan=False).encode()
        key = (base, r.api_key or "")
        headers = self._headers.get(key) or self._headers.setdefault(key, _headers(*key))
        resp = await self._connections.post(base, "/chat/completions", headers, content,
                                            timeout, ON_WIRE.get())
        if resp.status >= 400:
            raise _status_error(resp)
        try:
            data = json.loads(resp.content)
            if not isinstance(data, dict) or not data.get("choices"):
                raise ValueError("no choices")
        except ValueError as e:
            raise ProviderError("server", f"malformed reply: {e}"[:300],
                                status=resp.status) from e
        return data

    def _body(self, r: Route, messages: list[dict[str, Any]], max_tokens: int,
              temperature: float) -> dict[str, Any]:
        body: dict[str, Any] = {"model": r.model if r.gateway else _native_name(r),
                                "messages": messages}
        if r.gateway:
            body.update(max_tokens=max_tokens, temperature=temperature)
        else:  # OpenAI itself: its current parameter, and no temperature for reasoning models
            body["max_completion_tokens"] = max_tokens
            if not body["model"].lower().startswith(REASONING):
                body["temperature"] = temperature
        return body

    async def send(self, r: Route, messages: list[dict[str, str]], *, timeout: float,
                   max_tokens: int, temperature: float, fmt: dict[str, Any] | None,
                   thinking: int = 0) -> Reply:
        """Send once (the caller retries), like `mcptest.llm.call.send`."""
        body = self._body(r, list(messages), max_tokens + thinking, temperature)
        if thinking:
            body["reasoning_effort"] = "low"
        if fmt is not None:
            body["response_format"] = fmt
        data = await self._post(r, body, timeout)
        message = _message(data)
        refusal = message.get("refusal")
        content = message.get("content")
        stop, reason = stop_of(_choice(data).get("finish_reason"))
        return Reply(content=content if isinstance(content, str) else None,
                     refusal=refusal if isinstance(refusal, str) and refusal else None,
                     stop=stop, stop_reason=reason, **_usage(data),
                     version=served_version(data.get("model"), data.get("system_fingerprint")))

    async def send_chat(self, r: Route, messages: list[dict[str, Any]],
                        tools: list[dict[str, Any]], *, timeout: float, max_tokens: int,
                        temperature: float) -> ChatTurn:
        """One tool-calling request, like `mcptest.llm.call.send_chat`."""
        body = self._body(r, messages, max_tokens, temperature)
        if tools:
            body["tools"] = tools
        data = await self._post(r, body, timeout)
        message = _message(data)
        content = message.get("content")
        calls = []
        for k, tc in enumerate(message.get("tool_calls") or []):
            if not isinstance(tc, dict):
                continue
            fn = tc.get("function")
            fn = fn if isinstance(fn, dict) else {}
            calls.append(ToolCall(id=str(tc.get("id") or f"call_{k}"), name=str(fn.get("name")),
                                  arguments=fn.get("arguments") or "{}"))
        refusal = message.get("refusal")
        stop, reason = chat_stop(_choice(data).get("finish_reason"))
        return ChatTurn(content=content if isinstance(content, str) else None,
                        tool_calls=calls, stop=stop, stop_reason=reason,
                        refusal=refusal if isinstance(refusal, str) and refusal else None,
                        **_usage(data))


def _choice(data: dict[str, Any]) -> dict[str, Any]:
    choice = data["choices"][0] if isinstance(data["choices"], list) else {}
    return choice if isinstance(choice, dict) else {}


def _message(data: dict[str, Any]) -> dict[str, Any]:
    message = _choice(data).get("message")
    return message if isinstance(message, dict) else {}


def _usage(data: dict[str, Any]) -> dict[str, Any]:
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    cost = usage.get("cost")
    return {"prompt_tokens": int(usage.get("prompt_tokens") or 0),
            "completion_tokens": int(usage.get("completion_tokens") or 0),
            "reported_cost": float(cost) if isinstance(cost, int | float) else None}


def _headers(base: str, api_key: str) -> list[tuple[bytes, bytes]]:
    """The request's headers. Host from the URL as written (an IPv6 address keeps its
    brackets), a User-Agent (gateways behind a firewall may refuse a request without one) and
    no compression (the route does not decode it)."""
    host = urlsplit(base).netloc.rpartition("@")[2]
    return [(b"Host", host.encode()), (b"User-Agent", f"mcptest/{__version__}".encode()),
            (b"Authorization", f"Bearer {api_key}".encode()),
            (b"Content-Type", b"application/json"), (b"Accept", b"application/json"),
            (b"Accept-Encoding", b"identity")]


def _status_error(resp: HttpAnswer) -> ProviderError:
    """The same errors `mcptest.llm.call.provider_error` makes of litellm's: the status, the
    provider's words, its retry hint."""
    try:
        body: Any = json.loads(resp.content)
    except ValueError:
        body = resp.content[:200].decode("utf-8", "replace")
    hint = header_hint(resp.header)
    return failure(resp.status, read_body(body), hint)
