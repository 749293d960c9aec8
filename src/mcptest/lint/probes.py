"""The lint rules that send requests: `tools/list` order, the opt-in invalid-arguments probe and
the opt-in replay of the suite's tool calls for `structuredContent` (docs/lint.md).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from mcptest.grade.structural import structural_problem
from mcptest.lint.error_text import error_text
from mcptest.run.listing import list_all
from mcptest.run.requests import build_request

if TYPE_CHECKING:
    from mcptest.lint.tool_rules import Raw
    from mcptest.run.session import ServerConnection
    from mcptest.suite.models import ToolTest

PROBE_TIMEOUT_S = 10.0
WRONG: dict[str, Any] = {"string": 12345, "integer": "not-an-integer", "number": "not-a-number",
                         "boolean": "not-a-boolean", "object": "not-an-object",
                         "array": "not-an-array"}


async def list_order(conn: ServerConnection) -> list[Raw]:
    again = await list_all(conn, "tools/list", PROBE_TIMEOUT_S)
    if again.result is None:
        return []
    first = [str(t.get("name")) for t in conn.tools]
    second = [str(t.get("name")) for t in again.result.get("tools", []) if isinstance(t, dict)]
    if first == second:
        return []
    return [("list-order", "warning", None,
             f"two tools/list calls gave different orders: {', '.join(first[:6])} … then "
             f"{', '.join(second[:6])} …")]


INVALID_CURSOR = "mcptest-invalid-cursor"


async def cursor_validation(conn: ServerConnection) -> list[Raw]:
    """`tools/list` with a cursor the server never minted: the spec asks for -32602."""
    if "tools" not in conn.capabilities:
        return []
    outcome = await conn.send(build_request("tools/list", {"cursor": INVALID_CURSOR}),
                              PROBE_TIMEOUT_S)
    asked = f"tools/list with the unknown cursor {INVALID_CURSOR!r}"
    if outcome.result is not None:
        count = len(outcome.result.get("tools") or [])
        return [("invalid-cursor", "warning", None, f"answered {asked} with a page of {count} "
                 "tool(s) instead of JSON-RPC error -32602 (Invalid params)")]
    code = (outcome.error or {}).get("code")
    if outcome.error is not None and code != -32602:
        return [("invalid-cursor", "warning", None,
                 f"answered {asked} with JSON-RPC error {code} instead of -32602 (Invalid params)")]
    return []


def invalid_arguments(tool: dict[str, Any]) -> dict[str, Any] | None:
    """Arguments that break the tool's inputSchema, or None when nothing can be broken."""
    schema = tool.get("inputSchema")
    if not isinstance(schema, dict):
        return None
    required = schema.get("required")
    if isinstance(required, list) and required:
        return {}
    props = schema.get("properties")
    for name, sub in (props.items() if isinstance(props, dict) else []):
        kind = sub.get("type") if isinstance(sub, dict) else None
        if isinstance(kind, str) and kind in WRONG:
            return {name: WRONG[kind]}
    return None


async def probe_invalid_args(conn: ServerConnection) -> list[Raw]:
    found: list[Raw] = []
    for tool in conn.tools:
        name, args = str(tool.get("name")), invalid_arguments(tool)
        if args is None:
            continue
        outcome = await conn.call_tool(name, args, PROBE_TIMEOUT_S)
        shown = "missing required arguments" if args == {} else f"arguments {args}"
        if outcome.error is not None:
            found.append(("invalid-args", "error", name,
                          f"tool `{name}` answered {shown} with JSON-RPC error "
                          f"{outcome.error.get('code')}: {str(outcome.error.get('message'))[:120]}"
                          " instead of a result with isError: true"))
        elif outcome.transport_error is not None:
            found.append(("invalid-args", "error", name,
                          f"tool `{name}` with {shown}: {outcome.transport_error}"))
        elif (text := error_text(outcome.result)) is not None:
            found.append(_error_text(name, f"answered {shown}", text))
        elif (outcome.result or {}).get("isError") is not True:
            found.append(("invalid-args", "warning", name,
                          f"tool `{name}` accepted {shown} (no isError: true)"))
    return found


def _error_text(tool: str, what: str, text: str) -> Raw:
    return ("error-text", "error", tool,
            f"tool `{tool}` {what} with error text under isError: false: {text!r}")


async def replay_tool_tests(conn: ServerConnection, tests: list[ToolTest]) -> list[Raw]:
    """Call each tool test of this server once: structuredContent against outputSchema, and an
    answer that reads as an error without saying `isError: true` (one finding per tool)."""
    by_name = {str(t.get("name")): t for t in conn.tools}
    found: list[Raw] = []
    seen: set[tuple[str, str]] = set()
    for test in tests:
        tool = by_name.get(test.tool)
        if tool is None:
            continue
        outcome = await conn.call_tool(test.tool, test.args, test.timeout or PROBE_TIMEOUT_S)
        result = outcome.result
        text = error_text(result)
        if text is not None and ("error-text", test.tool) not in seen:
            seen.add(("error-text", test.tool))
            found.append(_error_text(test.tool, f"(test `{test.name}`) answered", text))
        if not isinstance(result, dict) or result.get("isError") is True or text is not None:
            continue  # errors are the tool tests' business, not the schema rule's
        problem = structural_problem({"result": result}, tool) \
            if isinstance(tool.get("outputSchema"), dict) else None
        if problem and ("structured-content", test.tool) not in seen:
            seen.add(("structured-content", test.tool))
            found.append(("structured-content", "error", test.tool,
                          f"tool `{test.tool}` (test `{test.name}`): {problem}"))
    return found
