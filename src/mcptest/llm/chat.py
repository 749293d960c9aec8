"""Tool-calling chat requests for agent tests, through the run's one `ModelClient`.

An agent model is routed like a judge (its own key, or the MCPTEST_JUDGE_BASE_URL gateway), its
worst case is reserved in the same budget ledger before each request (so `--max-cost` covers
agents too), and it shares the client's pool and retry policy. Agent requests are not judge
calls: they do not count in `calls_sent` and are never cached (a transcript is live); a run's
model cassettes record and replay them (`llm/cassette.py`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from mcptest.errors import BudgetRefused
from mcptest.llm.budget import lookup_price
from mcptest.llm.call import ChatTurn, ToolCall, send_chat
from mcptest.llm.model_client import ModelClient, RequestSpend
from mcptest.llm.offline import NotRecorded, OfflineRoute
from mcptest.llm.provider_errors import container_hint
from mcptest.llm.retry import RetriesExhausted
from mcptest.llm.routing import Route, Unroutable, route
from mcptest.suite.models import JudgeDefaults

if TYPE_CHECKING:
    from collections.abc import Awaitable

ChatStatus = Literal["ok", "deferred", "budget", "error"]


ToolCallRequest = ToolCall
"""A tool call the model asked for (the type `mcptest.llm.call` reads from the reply)."""


@dataclass(frozen=True)
class ChatReply:
    status: ChatStatus
    content: str | None = None
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    """False when the model has no known price and the route reported no cost."""
    message: str | None = None
    stop: str | None = None
    """`length`, `refusal`, `unknown` or None, as `ChatTurn.stop`."""
    stop_reason: str | None = None
    refusal: str | None = None


def _bound(messages: list[dict[str, Any]], tools: list[dict[str, Any]]) -> int:
    """Padded upper estimate of prompt tokens (bytes/3 of everything sent, +25%)."""
    size = len(json.dumps(messages, default=str).encode()) + len(json.dumps(tools).encode())
    return math.ceil(size / 3 * 1.25) + 8 * len(messages) + 32


class AgentModel:
    """One agent model of one run; `complete()` never raises for provider trouble."""

    def __init__(self, client: ModelClient, model: str, defaults: JudgeDefaults | None,
                 *, max_tokens: int | None = None) -> None:
        self.client = client
        self.settings = defaults or client.options.defaults or JudgeDefaults()
        self.defaults = defaults
        self.route: Route | Unroutable = client.routed(route(model or None, None, defaults,
                                                             client.options.env))
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
        tally = RequestSpend()
        try:
            fast = self.client.fast(r)
            litellm = None if fast else await self.client.litellm()
            table = self.client.model_cost() if litellm is None else litellm.model_cost
            price = lookup_price(r.model, self.settings.pricing, table, r.price_name)
            offline = r.reason if isinstance(r, OfflineRoute) else None
            if price is None and self.client.options.max_cost is not None and not offline:
                return ChatReply(status="error", message=(
                    f"no known price for agent model {r.model!r} with a cost cap set: add it "
                    "to the suite's judge.pricing"))

            def once() -> Awaitable[ChatTurn]:
                if litellm is None:  # the fast route (llm/openai_route.py)
                    return self.client.openai.send_chat(
                        r, messages, tools, timeout=timeout, max_tokens=self.max_tokens,
                        temperature=self.settings.temperature)
                return send_chat(litellm, r, messages, tools, timeout=timeout,
                                 max_tokens=self.max_tokens,
                                 temperature=self.settings.temperature)

            sent = None
            if self.client.cassettes is not None:  # --models: the cassettes are loaded
                from mcptest.llm.cassette_codec import Sent

                sent = Sent("chat", r.model, messages, tools,
                            {"temperature": self.settings.temperature,
                             "max_tokens": self.max_tokens}, offline=offline)
            turn: ChatTurn = await self.client.request(
                r.model, once,
                price=price, prompt_tokens=_bound(messages, tools), max_tokens=self.max_tokens,
                tally=tally, sent=sent)
        except NotRecorded as e:  # a replay with no answer for this turn (docs/cassettes.md)
            return ChatReply(status="deferred" if e.deferred else "error", message=str(e))
        except BudgetRefused as e:
            return ChatReply(status="budget", message=str(e), cost_usd=tally.cost)
        except RetriesExhausted as e:
            message = self.client.redact(str(e))[:300]
            if e.last.kind == "unreachable":
                message = "agent model " + message + container_hint(r.endpoint)
            return ChatReply(status="error", message=message, cost_usd=tally.cost)
        except Exception as e:  # never a pass: the agent row errors with the cause
            return ChatReply(status="error", cost_usd=tally.cost,
                             message=self.client.redact(f"{type(e).__name__}: {e}")[:300])
        calls = list(turn.tool_calls)
        return ChatReply(status="ok", content=turn.content, tool_calls=calls,
                         prompt_tokens=turn.prompt_tokens,
                         completion_tokens=turn.completion_tokens, cost_usd=tally.cost,
                         cost_known=tally.cost_known, stop=turn.stop,
                         stop_reason=turn.stop_reason, refusal=turn.refusal)
