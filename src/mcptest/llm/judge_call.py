"""One judge request on the wire: what every request of one judge call shares, and how it is
sent through the run's model client with the structured-output format weakened when an
endpoint rejects it (llm/engine.py decides what to ask and reads the verdict).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.errors import ProviderError
from mcptest.llm.budget import Price, prompt_token_bound
from mcptest.llm.call import Reply, count_prompt_tokens
from mcptest.llm.call import send as litellm_send
from mcptest.llm.prompt import cache_messages
from mcptest.llm.verdict_modes import weaker_format

if TYPE_CHECKING:
    from collections.abc import Awaitable

    from mcptest.llm.judge_reply import CutOff
    from mcptest.llm.model_client import ModelClient, RequestSpend
    from mcptest.llm.routing import Route
    from mcptest.suite.models import JudgeDefaults


@dataclass(frozen=True)
class JudgeCall:
    """What every request of one judge call shares."""

    route: Route
    price: Price | None
    settings: JudgeDefaults
    timeout: float
    thinking: int
    """Tokens allowed for thinking before the verdict (`providers.thinking_tokens`)."""
    nonce: str = ""
    """The prompt's nonce, blanked in what a cassette keys the request by."""
    offline: str | None = None
    """Why the model cannot be reached now, when only a cassette can answer it."""

    def cut_message(self, e: CutOff) -> str:
        limit = f"{self.settings.max_tokens}" + (
            f" + {self.thinking} for thinking" if self.thinking else "")
        said = f", the provider said {e.reason}" if e.reason else ""
        return (f"answer cut at max_tokens ({limit}{said}): no verdict is read from a cut "
                "answer; raise judge.max_tokens")

    async def send(self, client: ModelClient, litellm: Any | None,
                   messages: list[dict[str, str]], fmt: dict[str, Any] | None,
                   tally: RequestSpend, *, count_tokens: bool) -> Reply:
        """One judge request through the client; an endpoint that rejects the
        structured-output format (a 4xx naming it) gets the same request again with a weaker
        one: `json_schema` → `json_object` → none. Any other rejection is final.
        `count_tokens`: count the prompt's tokens with litellm (a cost cap is set)."""
        r, settings = self.route, self.settings
        counted = (count_prompt_tokens(litellm, r.price_name, messages)
                   if litellm is not None and count_tokens and self.price is not None else None)
        state: dict[str, Any] = {"fmt": fmt}

        def drop_format(e: BaseException) -> bool:
            if isinstance(e, ProviderError) and e.format_rejected and state["fmt"] is not None:
                state["fmt"] = weaker_format(state["fmt"])
                return True
            return False

        def once() -> Awaitable[Reply]:
            if litellm is None:  # the fast route (llm/openai_route.py)
                return client.openai.send(r, messages, timeout=self.timeout,
                                          max_tokens=settings.max_tokens,
                                          temperature=settings.temperature,
                                          fmt=state["fmt"], thinking=self.thinking)
            return litellm_send(litellm, r, messages, timeout=self.timeout,
                        max_tokens=settings.max_tokens, temperature=settings.temperature,
                        fmt=state["fmt"], thinking=self.thinking)

        sent = None
        if client.cassettes is not None:  # a run without --models never loads the cassettes
            from mcptest.llm.cassette_codec import Sent

            sent = Sent("judge", r.model, cache_messages(messages, self.nonce), [],
                        {"temperature": settings.temperature,
                         "max_tokens": settings.max_tokens}, offline=self.offline)
        reply: Reply = await client.request(
            r.model, once,
            price=self.price, prompt_tokens=prompt_token_bound(messages, counted),
            max_tokens=settings.max_tokens + self.thinking, tally=tally, fallback=drop_format,
            sent=sent, lull=True)
        return reply
