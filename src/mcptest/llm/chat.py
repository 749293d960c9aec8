"""Tool-calling chat requests for agent tests, through the judge engine's litellm, ledger and pool.

An agent model is routed like a judge (its own key, or the MCPTEST_JUDGE_BASE_URL gateway), its
worst case is reserved in the same budget ledger before each request (so `--max-cost` covers
agents too), and it shares the engine's concurrency pool and retry policy. Agent requests are not
judge calls: they do not count in `calls_sent` and are never cached (a transcript is live).

Engine internals used: `_loader` (the lazy litellm import), `_ledger`, `_pool`, `_policy`.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import Any, Literal

import anyio

from mcptest.llm.budget import BudgetRefused, Price, lookup_price
from mcptest.llm.engine import JudgeEngine
from mcptest.llm.models import Route, Unroutable, route
from mcptest.llm.retry import RetriesExhausted, classify, with_retries
from mcptest.suite.models import JudgeDefaults

ChatStatus = Literal["ok", "deferred", "budget", "error"]


@dataclass(frozen=True)
class ToolCallRequest:
    id: str
    name: str
    arguments: str
    """The raw JSON text the model produced (parsed by the caller; may be invalid)."""


@dataclass(frozen=True)
class ChatReply:
    status: ChatStatus
    content: str | None = None
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    message: str | None = None


def _bound(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    """Padded upper estimate of prompt tokens (bytes/3 of everything sent, +25%)."""
    size = len(json.dumps(messages, default=str).encode()) + len(json.dumps(tools).encode())
    return math.ceil(size / 3 * 1.25) + 8 * len(messages) + 32


class AgentModel:
    """One agent model of one run; `complete()` never raises for provider trouble."""

    def __init__(self, engine: JudgeEngine, model: str, defaults: JudgeDefaults | None,
                 *, max_tokens: int | None = None) -> None:
        self.engine = engine
        self.settings = defaults or engine.options.defaults or JudgeDefaults()
        self.defaults = defaults
        self.route: Route | Unroutable = route(model or None, None, defaults,
                                               engine.options.env)
        self.max_tokens = max_tokens or self.settings.max_tokens
        self.name = self.route.model or model or "(no model)"

    @property
    def unroutable(self) -> str | None:
        return self.route.reason if isinstance(self.route, Unroutable) else None

    async def complete(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]],
                       timeout: float) -> ChatReply:
        r = self.route
        if isinstance(r, Unroutable):
            return ChatReply(status="deferred", message=r.reason)
        try:
            litellm = await anyio.to_thread.run_sync(self.engine.loader.get)
            price = lookup_price(r.model, self.settings.pricing, litellm.model_cost)
            if price is None and self.engine.options.max_cost is not None:
                return ChatReply(status="error", message=(
                    f"no known price for agent model {r.model!r} with a cost cap set: add it "
                    "to the suite's judge.pricing"))
            async with self.engine.pool.slot(r.model):
                return await with_retries(
                    lambda: self._attempt(litellm, r, messages, tools, timeout, price),
                    self.engine.retry_policy, passthrough=(BudgetRefused,))
        except BudgetRefused as e:
            return ChatReply(status="budget", message=f"budget: {e}")
        except RetriesExhausted as e:
            return ChatReply(status="error", message=self.engine.redact(str(e))[:300])
        except Exception as e:  # never a pass: the agent row errors with the cause
            return ChatReply(status="error",
                             message=self.engine.redact(f"{type(e).__name__}: {e}")[:300])

    async def _attempt(self, litellm: Any, r: Route, messages: list[dict[str, Any]],
                       tools: list[dict[str, Any]], timeout: float, price: Price | None
                       ) -> ChatReply:
        worst = price.cost(_bound(messages, tools), self.max_tokens) if price else 0.0
        reservation = self.engine.ledger.reserve(worst)
        kwargs: dict[str, Any] = {
            "model": r.litellm_model, "messages": messages, "timeout": timeout,
            "max_tokens": self.max_tokens, "temperature": self.settings.temperature,
            "num_retries": 0,
        }
        if tools:
            kwargs["tools"] = tools
        if r.api_base:
            kwargs["api_base"] = r.api_base
        if r.api_key:
            kwargs["api_key"] = r.api_key
        try:
            resp = await litellm.acompletion(**kwargs)
        except Exception as e:
            billed = classify(e).kind in ("timeout", "transport")
            self.engine.ledger.settle(reservation, reservation.amount if billed else 0.0)
            raise
        usage = getattr(resp, "usage", None)
        p = int(getattr(usage, "prompt_tokens", 0) or 0)
        c = int(getattr(usage, "completion_tokens", 0) or 0)
        cost = price.cost(p, c) if price else float(getattr(usage, "cost", 0.0) or 0.0)
        self.engine.ledger.settle(reservation, cost)
        message = resp.choices[0].message
        calls = [
            ToolCallRequest(id=str(getattr(tc, "id", "") or f"call_{k}"),
                            name=str(tc.function.name),
                            arguments=tc.function.arguments or "{}")
            for k, tc in enumerate(getattr(message, "tool_calls", None) or [])
        ]
        return ChatReply(status="ok", content=getattr(message, "content", None), tool_calls=calls,
                         prompt_tokens=p, completion_tokens=c, cost_usd=cost)
