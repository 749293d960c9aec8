"""The tool-using loop: ask the model, run its tool calls on the real servers, repeat.

A turn is one model request. The loop ends at a reply without tool calls (the final answer) or
after `max_turns` requests with the model still calling tools (`stop = "max_turns"`). A tool call
the model gets wrong (unknown name, arguments that are not a JSON object) is answered with an
error message instead of being sent, as a real host would.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import anyio

from mcptest.agents.tools import function_tools
from mcptest.agents.transcript import ToolCallRecord, Transcript

if TYPE_CHECKING:  # the MCP client is a costly import: a run with no server never pays it
    from collections.abc import Mapping

    from mcptest.llm.chat import AgentModel, ChatReply
    from mcptest.run.session import ServerConnection

TOOL_TIMEOUT = 30.0
MODEL_TIMEOUT = 120.0
MAX_TOOL_TEXT = 20_000


def _tool_message(record: ToolCallRecord) -> str:
    payload = record.error if record.error is not None else record.result
    text = json.dumps(payload, ensure_ascii=False, default=str)
    return text[:MAX_TOOL_TEXT]


async def run_agent(model: AgentModel, servers: Mapping[str, ServerConnection], prompt: str,
                    *, system: str | None = None, max_turns: int = 8,
                    tool_timeout: float = TOOL_TIMEOUT, timeout: float | None = None
                    ) -> Transcript:
    """Run the loop; with `timeout`, a run that takes longer stops with what it has so far."""
    t = Transcript(model=model.name, prompt=prompt)
    with anyio.move_on_after(timeout) as scope:
        await _loop(t, model, servers, system, max_turns, tool_timeout)
    if scope.cancelled_caught:
        t.stop = "timeout"
        t.message = f"the agent run took longer than its timeout ({timeout:g}s)"
    return t


async def _loop(t: Transcript, model: AgentModel, servers: Mapping[str, ServerConnection],
                system: str | None, max_turns: int, tool_timeout: float) -> None:
    prompt = t.prompt
    tools, routes = function_tools({name: conn.tools for name, conn in servers.items()})
    messages: list[dict[str, Any]] = []
    if system:
        messages.append({"role": "system", "content": system})
    messages.append({"role": "user", "content": prompt})
    while t.turns < max_turns:
        reply = await model.complete(messages, tools, MODEL_TIMEOUT)
        if reply.status != "ok":
            t.stop = ("deferred" if reply.status == "deferred" else
                      "budget" if reply.status == "budget" else "model_error")
            t.message = reply.message
            return
        t.turns += 1
        t.prompt_tokens += reply.prompt_tokens
        t.completion_tokens += reply.completion_tokens
        t.cost_usd += reply.cost_usd
        t.cost_known = t.cost_known and reply.cost_known
        t.stop_reason = reply.stop_reason
        if _stopped(t, reply, model.max_tokens):
            return
        if not reply.tool_calls:
            t.final = reply.content or ""
            t.stop = "final"
            return
        messages.append({"role": "assistant", "content": reply.content, "tool_calls": [
            {"id": c.id, "type": "function",
             "function": {"name": c.name, "arguments": c.arguments}} for c in reply.tool_calls]})
        for call in reply.tool_calls:
            record = await _execute(call.name, call.arguments, routes, servers, tool_timeout)
            t.tool_calls.append(record)
            messages.append({"role": "tool", "tool_call_id": call.id,
                             "content": _tool_message(record)})
    t.stop = "max_turns"
    t.message = (f"stopped at max_turns={max_turns}: the model was still calling tools "
                 "and gave no final answer")


def _stopped(t: Transcript, reply: ChatReply, max_tokens: int) -> bool:
    """Whether the turn just counted ends the run unfinished: cut at the token limit (any turn:
    a cut tool call's arguments are unfinished too), refused by the provider, or a final answer
    whose route did not say why it stopped (never read as finished)."""
    said = f", the provider said {reply.stop_reason}" if reply.stop_reason else ""
    if reply.stop == "length":
        t.stop = "cut"
        t.message = (f"turn {t.turns} cut at max_tokens ({max_tokens}{said}): the answer is "
                     "unfinished; raise judge.max_tokens")
    elif reply.stop == "refusal" or (reply.refusal and not reply.tool_calls):
        t.stop = "refused"
        sent = reply.refusal or reply.content
        text = f": {sent}" if sent else ""
        t.message = (f"turn {t.turns} refused by the provider "
                     f"({reply.stop_reason if reply.stop == 'refusal' else 'refusal'}){text}"
                     )[:500]
    elif reply.stop == "unknown" and not reply.tool_calls:
        t.stop = "unknown"
        t.message = (f"turn {t.turns}: the route gave no stop reason, so a finished answer "
                     "cannot be told from a cut one (docs/agents.md, \"Stop reasons\")")
    else:
        return False
    return True


async def _execute(name: str, arguments: str, routes: Mapping[str, Any],
                   servers: Mapping[str, ServerConnection], timeout: float) -> ToolCallRecord:
    route = routes.get(name)
    try:
        args = json.loads(arguments or "{}")
    except (json.JSONDecodeError, RecursionError) as e:  # RecursionError: nested past bounds
        return ToolCallRecord(name=route.tool if route else name, args=arguments[:2000],
                              is_error=True, server=route.server if route else None,
                              error=f"arguments are not valid JSON: {str(e)[:200]}")
    if route is None:
        return ToolCallRecord(name=name, args=args, is_error=True,
                              error=f"unknown tool {name!r}")
    if not isinstance(args, dict):
        return ToolCallRecord(name=route.tool, server=route.server, args=args, is_error=True,
                              error="arguments must be a JSON object")
    out = await servers[route.server].call_tool(route.tool, args, timeout)
    if out.result is not None:
        return ToolCallRecord(name=route.tool, server=route.server, args=args, result=out.result,
                              is_error=out.result.get("isError") is True)
    return ToolCallRecord(name=route.tool, server=route.server, args=args, is_error=True,
                          error=out.error if out.error is not None else out.transport_error)
