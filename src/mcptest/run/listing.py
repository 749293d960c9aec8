"""Whole listings: every page of `tools/list`, `resources/list`, `resources/templates/list` or
`prompts/list` merged into one result, on the connection's failure-as-data path."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.run.requests import LIST_KEYS, CallOutcome, build_request

if TYPE_CHECKING:
    from mcptest.run.session import ServerConnection
    from mcptest.suite.models.surface_cases import ListMethod

MAX_PAGES = 1000
"""A server whose cursors never end cannot keep a listing going forever."""


async def list_all(conn: ServerConnection, method: ListMethod, timeout: float) -> CallOutcome:
    """`{key: [...every item]}`; a JSON-RPC error or transport failure comes back as such."""
    key = LIST_KEYS[method]
    items: list[Any] = []
    cursor: str | None = None
    total = 0.0
    for _ in range(MAX_PAGES):
        outcome = await conn.send(build_request(method, {"cursor": cursor}), timeout)
        total += outcome.duration_ms
        if outcome.result is None:
            return outcome
        page = outcome.result.get(key)
        items.extend(page if isinstance(page, list) else [])
        cursor = outcome.result.get("nextCursor")
        if not isinstance(cursor, str) or not cursor:
            break
    return CallOutcome(result={key: items}, duration_ms=total)
