"""What an agent run produced, as targets read it (docs/agents.md)
and as a judge reads it."""

from __future__ import annotations

import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Stop = Literal["final", "max_turns", "timeout", "model_error", "deferred", "budget", "cut",
               "refused", "unknown"]
"""`cut`: a turn ended at the token limit; `refused`: the provider refused a turn; `unknown`:
the route did not say why the final turn stopped (docs/agents.md, "Stop reasons")."""


class ToolCallRecord(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    """The MCP tool's own name (not the exposed alias)."""
    server: str | None = None
    args: Any = None
    result: Any = None
    error: Any = None
    """JSON-RPC error, a transport failure, or why the call was refused (unknown tool, bad JSON)."""
    is_error: bool = False


class Transcript(BaseModel):
    model_config = ConfigDict(extra="forbid")

    model: str
    prompt: str
    tool_calls: list[ToolCallRecord] = Field(default_factory=list)
    final: str | None = None
    turns: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    cost_known: bool = True
    """False when a turn's model had no known price and its route reported no cost."""
    stop: Stop = "final"
    stop_reason: str | None = None
    """The provider's own word for why the last turn stopped (`end_turn`, `max_tokens` …)."""
    message: str | None = None

    def produced(self) -> dict[str, Any]:
        """The data targets resolve against (`tool_calls[0].args.city`, `final`, …)."""
        out: dict[str, Any] = {
            "tool_calls": [c.model_dump(mode="json") for c in self.tool_calls],
            "conversation": {
                "turns": self.turns,
                "tokens": {"prompt": self.prompt_tokens, "completion": self.completion_tokens,
                           "total": self.prompt_tokens + self.completion_tokens},
                "stop": self.stop,
                "stop_reason": self.stop_reason,
                "model": self.model,
                "cost_usd": round(self.cost_usd, 8) if self.cost_known else None,
            },
            "transcript": self.text(),
        }
        if self.final is not None:
            out["final"] = self.final
        return out

    def text(self) -> str:
        """The whole run as one readable document: what a rubric grades."""
        lines = [f"User request: {self.prompt}"]
        for i, c in enumerate(self.tool_calls):
            lines.append(f"Tool call {i + 1}: {c.name} {json.dumps(c.args, ensure_ascii=False)}")
            shown = c.error if c.error is not None else _result_text(c.result)
            lines.append(f"Tool result {i + 1}{' (error)' if c.is_error else ''}: "
                         f"{shown if isinstance(shown, str) else json.dumps(shown, default=str)}")
        lines.append(f"Final answer: {self.final}" if self.final is not None else
                     f"No final answer ({self.stop}).")
        return "\n".join(lines)


def _result_text(result: Any) -> Any:
    """Text content joined when the result is plain text; the raw result otherwise."""
    if isinstance(result, dict):
        content = result.get("content")
        if isinstance(content, list) and content and all(
                isinstance(c, dict) and c.get("type") == "text" for c in content):
            return "\n".join(str(c.get("text", "")) for c in content)
    return result
