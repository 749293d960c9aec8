"""A loopback MCP server (the SDK's MCPServer, stdio) that asks its client for input, in both
eras: on a 2026-07-28 connection it asks through `InputRequiredResult` (its `requestState` sealed
by the SDK, so a tampered one is rejected), on a handshake-era connection it pushes the
requests. Tools:

    book_table        elicits a name and a party size (form), answers with what it got
    summarize         asks the client's model (sampling) and returns its text
    workspace         lists the client's roots
    capabilities      what the client declared on this request
    chatty            sends a log notification and two progress notifications, then answers

and a prompt, `greeting`, that asks whom to greet (a hand-rolled `InputRequiredResult` on
2026-07-28, a pushed elicitation on the handshake).

    python client_server.py                 # stdio
    python client_server.py --port 8770     # Streamable HTTP at http://127.0.0.1:8770/mcp
"""

from __future__ import annotations

import sys
from typing import Annotated

from mcp.server.elicitation import AcceptedElicitation, ElicitationResult
from mcp.server.mcpserver import Context, MCPServer, Resolve
from mcp.server.mcpserver.resolve import Elicit, ListRoots, Sample
from mcp_types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel, Field

server = MCPServer("client-side-server")


class Booking(BaseModel):
    name: str = Field(description="Who the table is for")
    party: int = Field(default=2, ge=1, le=12, description="How many people")


def ask_booking() -> Elicit[Booking]:
    return Elicit("Who is the table for, and how many people?", Booking)


def ask_summary(text: str) -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text=(
        f"Summarize in one line: {text}")))], max_tokens=50, system_prompt="You summarize.")


def ask_roots() -> ListRoots:
    return ListRoots()


@server.tool()
def book_table(
    booking: Annotated[ElicitationResult[Booking], Resolve(ask_booking)],
) -> str:
    """Book a table after asking who it is for."""
    if isinstance(booking, AcceptedElicitation):
        return f"Booked for {booking.data.name}, party of {booking.data.party}."
    return f"No booking ({booking.action})."


@server.tool()
def summarize(text: str, reply: Annotated[CreateMessageResult, Resolve(ask_summary)]) -> str:
    """Summarize a text with the client's model."""
    content = reply.content
    said = content.text if isinstance(content, TextContent) else "?"
    return f"Summary by {reply.model}: {said}"


@server.tool()
def workspace(roots: Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    """The client's roots, one per line."""
    return "\n".join(f"{r.name or '-'} {r.uri}" for r in roots.roots) or "(no roots)"


@server.tool()
def capabilities(ctx: Context) -> str:
    """The capabilities the client declared, as JSON."""
    caps = ctx.client_capabilities
    return caps.model_dump_json(by_alias=True, exclude_none=True) if caps else "{}"


@server.tool()
async def chatty(ctx: Context) -> str:
    """Notify (a log line, two progress steps), then answer."""
    await ctx.info("starting the chatty work")
    await ctx.report_progress(1, 2, "half way")
    await ctx.report_progress(2, 2, "done")
    return "chatted"


class Who(BaseModel):
    name: str = Field(description="Whom to greet")


WHO_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


@server.prompt()
async def greeting(ctx: Context) -> str | InputRequiredResult:
    """A greeting for whoever the client names."""
    if ctx.protocol_version != "2026-07-28":
        asked = await ctx.elicit("Whom should the greeting address?", Who)
        return f"Hello, {asked.data.name}!" if isinstance(asked, AcceptedElicitation) else "Hi."
    answer = (ctx.input_responses or {}).get("who")
    if answer is None:
        ask = ElicitRequest(params=ElicitRequestFormParams(
            message="Whom should the greeting address?", requested_schema=WHO_SCHEMA))
        return InputRequiredResult(input_requests={"who": ask}, request_state="greeting-1")
    content = getattr(answer, "content", None) or {}
    return f"Hello, {content.get('name', 'nobody')}!"


if __name__ == "__main__":
    if "--port" in sys.argv:
        import uvicorn

        port = int(sys.argv[sys.argv.index("--port") + 1])
        uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port,
                    log_level="warning")
    else:
        server.run()
