"""The SDK request objects for the client → server methods mcptest sends on its raw path.

`ServerConnection.send` takes any of them and returns the wire result as a dict, so tool calls,
resource reads, prompt gets and the four listings share one failure-as-data path.
"""

from __future__ import annotations

from typing import Any, Literal

import mcp_types as types

ListMethod = Literal["tools/list", "resources/list", "resources/templates/list", "prompts/list"]
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
    """The SDK request of `method` with wire-named `params` (unknown methods raise KeyError)."""
    if method in _LISTS:
        cursor = params.get("cursor")
        paged = types.PaginatedRequestParams(cursor=cursor) if cursor else None
        return _LISTS[method](params=paged)
    if method == "tools/call":
        return types.CallToolRequest(params=types.CallToolRequestParams(
            name=params["name"], arguments=params.get("arguments") or {}))
    if method == "resources/read":
        return types.ReadResourceRequest(
            params=types.ReadResourceRequestParams(uri=params["uri"]))
    if method == "prompts/get":
        return types.GetPromptRequest(params=types.GetPromptRequestParams(
            name=params["name"], arguments=params.get("arguments") or None))
    raise KeyError(method)
