"""HTTP failures during a tool call, told apart from the tool's own JSON-RPC errors.

The SDK's Streamable HTTP transport turns a 401, 403 or 500, an HTML page, a body that is not
JSON-RPC, or an SSE stream cut before the answer into a synthesized JSON-RPC error on the
request ("-32603 Server returned an error response"). Taken at face value that reads as the
tool's fault (`failed`, gap `tool-error`) and the HTTP status is lost. Here those synthesized
errors are recognised by their code and message, and the status the transport's response hook
recorded (`HttpStatusLog`, with `WWW-Authenticate`) becomes the test's error (docs/suites.md).
Text starting with `protocol:` makes the runner's gap `protocol`; anything else is `transport`.
"""

from __future__ import annotations

from mcp_types import CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR

from mcptest.run.connect import HttpStatusLog, one_line

_STATUS_STAND_INS = {
    (INTERNAL_ERROR, "Server returned an error response"),
    (INVALID_REQUEST, "Session terminated"),
}


def _new_error(log: HttpStatusLog, seen: int) -> str | None:
    """The last HTTP error status line, when one arrived since `seen` responses."""
    if any(status >= 400 for status in log.statuses[seen:]):
        return log.last_error
    return None


def http_fault(code: int, message: str, log: HttpStatusLog, seen: int) -> str | None:
    """One line for a transport-made error on a call, or None for a real JSON-RPC error."""
    status = _new_error(log, seen)
    if (code, message) in _STATUS_STAND_INS:
        return one_line(status or f"HTTP error during tools/call ({message})")
    if code == INVALID_REQUEST and message.startswith("Unexpected content type:"):
        kind = message.split(":", 1)[1].strip() or "no content type"
        return one_line(f"protocol: the server answered tools/call with {kind}, not JSON or an "
                        "event stream (an HTML error page from a proxy?)")
    if code == INVALID_REQUEST and "202 Accepted" in message:
        return one_line("protocol: the server answered tools/call with 202 Accepted and no result")
    if code == PARSE_ERROR and message.startswith("Failed to parse JSON response"):
        return one_line(f"protocol: the server's answer is not JSON-RPC: {message}", 400)
    if code == CONNECTION_CLOSED and message.startswith("SSE stream"):
        where = f"; {status}" if status else ""
        return one_line(f"connection lost during tools/call: {message}{where}")
    return None
