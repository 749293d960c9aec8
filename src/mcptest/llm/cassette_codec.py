"""What a model request sends, and how its answer is kept in a cassette and read back
(llm/cassette.py records and replays them; docs/cassettes.md).

An answer is kept without what a replay cannot have (cost, provider version) and with its
tool-call ids made from the request's key, so the same answers record the same bytes.
"""

from __future__ import annotations

import dataclasses
import hashlib
from dataclasses import asdict, dataclass
from typing import Any, Literal

from mcptest.llm.call import ChatTurn, Reply, ToolCall


@dataclass(frozen=True)
class Sent:
    """What one model request sends, before redaction."""

    kind: Literal["judge", "chat"]
    model: str
    messages: list[dict[str, Any]]
    tools: list[dict[str, Any]]
    params: dict[str, Any]
    offline: str | None = None
    """The route's reason when the model is reachable only through the cassette."""

    def request(self) -> dict[str, Any]:
        return {"kind": self.kind, "model": self.model, "messages": self.messages,
                "tools": self.tools, "params": self.params}


def encode(reply: Reply | ChatTurn) -> dict[str, Any]:
    """A reply as the cassette keeps it: no cost (a replay costs nothing), no provider version
    (a replay was served by no provider), no absent fields.
    An empty text stays `""`: the next turn sends it back as it came (Ollama answers a tool
    call with `""`, and `null` there would be another request)."""
    out = {k: v for k, v in asdict(reply).items()
           if k not in ("reported_cost", "version") and v is not None and v != []}
    if isinstance(reply, ChatTurn) and reply.tool_calls:
        out["tool_calls"] = [asdict(c) for c in reply.tool_calls]
    return out


def decode(kind: str, data: dict[str, Any]) -> Reply | ChatTurn:
    tokens = {"prompt_tokens": int(data.get("prompt_tokens") or 0),
              "completion_tokens": int(data.get("completion_tokens") or 0)}
    if kind == "chat":
        calls = [ToolCall(id=str(c.get("id", "")), name=str(c.get("name", "")),
                          arguments=str(c.get("arguments", "{}")))
                 for c in data.get("tool_calls") or [] if isinstance(c, dict)]
        return ChatTurn(content=data.get("content"), tool_calls=calls, reported_cost=None,
                        stop=data.get("stop"), stop_reason=data.get("stop_reason"),
                        refusal=data.get("refusal"), **tokens)
    return Reply(content=data.get("content"), refusal=data.get("refusal"), reported_cost=None,
                 stop=data.get("stop"), stop_reason=data.get("stop_reason"),
                 prompt_tokens=tokens["prompt_tokens"],
                 completion_tokens=tokens["completion_tokens"])


def stable_id(key: str, k: int) -> str:
    """The `k`th tool-call id of the answer to the request keyed `key`: nine letters and
    digits, the one shape every provider takes back (Mistral requires exactly that; Anthropic,
    Bedrock and OpenAI take any such token)."""
    return hashlib.sha256(f"{key}/{k}".encode()).hexdigest()[:9]


def stable_ids(reply: Reply | ChatTurn, key: str) -> Reply | ChatTurn:
    """Tool-call ids from the request's key instead of the provider's random ones, so the same
    answers record the same bytes and the next turn's request is the same in a replay."""
    if not isinstance(reply, ChatTurn) or not reply.tool_calls:
        return reply
    calls = [ToolCall(id=stable_id(key, k), name=c.name, arguments=c.arguments)
             for k, c in enumerate(reply.tool_calls)]
    return dataclasses.replace(reply, tool_calls=calls)
