"""The SDK request objects for the client → server methods mcptest sends on its raw path.

`ServerConnection.send` takes any of them and returns the wire result as a dict, so tool calls,
resource reads, prompt gets and the four listings share one failure-as-data path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import mcp_types as types
from mcp.shared.exceptions import MCPError
from mcp_types import METHOD_NOT_FOUND
from pydantic import BaseModel, ConfigDict, TypeAdapter

if TYPE_CHECKING:
    from mcp import ClientSession

LIST_KEYS: dict[str, str] = {
    "tools/list": "tools",
    "resources/list": "resources",
    "resources/templates/list": "resourceTemplates",
    "prompts/list": "prompts",
}
"""The result key holding the items of each list method."""

_LISTS: dict[str, Any] = {
    "tools/list": types.ListToolsRequest,
    "resources/list": types.ListResourcesRequest,
    "resources/templates/list": types.ListResourceTemplatesRequest,
    "prompts/list": types.ListPromptsRequest,
}


def build_request(method: str, params: dict[str, Any]) -> Any:
    """The SDK request of `method` with wire-named `params` (unknown methods raise KeyError).

    `inputResponses` and `requestState` are a 2026-07-28 retry's (run/rounds.py)."""
    if method in _LISTS:
        cursor = params.get("cursor")
        paged = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        return _LISTS[method](params=paged)
    rounds = {"input_responses": params.get("inputResponses"),
              "request_state": params.get("requestState")}
    if method == "tools/call":
        return types.CallToolRequest(params=types.CallToolRequestParams(
            name=params["name"], arguments=params.get("arguments") or {}, **rounds))
    if method == "resources/read":
        return types.ReadResourceRequest(
            params=types.ReadResourceRequestParams(uri=params["uri"], **rounds))
    if method == "prompts/get":
        return types.GetPromptRequest(params=types.GetPromptRequestParams(
            name=params["name"], arguments=params.get("arguments") or None, **rounds))
    raise KeyError(method)


# Results stay raw wire JSON on purpose (the SDK's typing expects its own result models).
RAW: Any = TypeAdapter(dict[str, Any])


class CallOutcome(BaseModel):
    """What one `tools/call` produced: a wire result, a JSON-RPC error, or a transport failure."""

    model_config = ConfigDict(frozen=True)

    result: dict[str, Any] | None = None
    error: dict[str, Any] | None = None
    transport_error: str | None = None
    timed_out: bool = False
    duration_ms: float
    rounds: int = 0
    """2026-07-28 `InputRequiredResult` rounds answered before this outcome (run/rounds.py)."""
    task: dict[str, Any] | None = None
    """The task the server created instead of answering at once (run/tasks.py)."""


async def list_tools_raw(session: ClientSession) -> list[dict[str, Any]]:
    """All pages of tools/list as raw wire dicts ([] for a server without tools/list)."""
    tools: list[dict[str, Any]] = []
    cursor: str | None = None
    for _ in range(1000):
        params = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        try:
            page = await session.send_request(types.ListToolsRequest(params=params), RAW)
        except MCPError as e:
            if e.code == METHOD_NOT_FOUND and not tools:
                return []
            raise
        tools.extend(t for t in page.get("tools", []) if isinstance(t, dict))
        cursor = page.get("nextCursor")
        if not cursor:
            break
    if "x-mcp-header" in str([t.get("inputSchema") for t in tools]):
        await session.list_tools()  # lets the SDK learn which arguments go into headers
    return tools
