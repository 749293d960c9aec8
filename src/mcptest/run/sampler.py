"""Sampling answered by a live model (`client.sampling: [{model: …}]`, docs/suites.md), through
the run's one model client: the same route and keys as an agent model, the run's pool, budget
and retries (`llm/chat.py`'s `AgentModel`). A reply is at most the smaller of the server's
`maxTokens` and the suite's `judge.max_tokens` (`ClientSide.sample` refuses one below 1).
Replies are live, like an agent's turns, and not cached; `text:` is the reproducible answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mcp_types as types

from mcptest.llm.chat import AgentModel

if TYPE_CHECKING:
    from mcptest.llm.model_client import ModelClient
    from mcptest.suite.models import JudgeDefaults


def chat_messages(params: dict[str, Any]) -> list[dict[str, Any]]:
    """A sampling request's system prompt and messages as chat messages (text content only;
    an image or audio block is named, not sent)."""
    out: list[dict[str, Any]] = []
    if params.get("systemPrompt"):
        out.append({"role": "system", "content": str(params["systemPrompt"])})
    for message in params.get("messages") or []:
        content = message.get("content")
        blocks = content if isinstance(content, list) else [content]
        texts = [b.get("text", "") if b.get("type") == "text" else f"[{b.get('type')} content]"
                 for b in blocks if isinstance(b, dict)]
        out.append({"role": message.get("role", "user"), "content": "\n".join(texts)})
    return out


class ModelSampler:
    """Answers sampling requests for one suite (its `judge:` settings route the models)."""

    def __init__(self, client: ModelClient, defaults: JudgeDefaults | None) -> None:
        self.client = client
        self.defaults = defaults

    async def sample(self, model: str, params: dict[str, Any],
                     timeout: float) -> types.CreateMessageResult | types.ErrorData:
        agent = AgentModel(self.client, model, self.defaults)
        asked = params.get("maxTokens")
        if isinstance(asked, int) and not isinstance(asked, bool) and asked >= 1:
            # the server's maxTokens is a ceiling it asks for; the suite's max_tokens is ours
            agent.max_tokens = min(asked, agent.max_tokens)
        if agent.unroutable:
            return _failed(f"model {model!r} cannot be asked: {agent.unroutable}")
        reply = await agent.complete(chat_messages(params), [], timeout)
        if reply.status != "ok":
            return _failed(f"model {agent.name!r} did not answer ({reply.status}): "
                           f"{reply.message or ''}")
        return types.CreateMessageResult(
            role="assistant", content=types.TextContent(type="text", text=reply.content or ""),
            model=agent.name, stop_reason="endTurn")


def _failed(message: str) -> types.ErrorData:
    return types.ErrorData(code=types.INTERNAL_ERROR, message=message[:300])
