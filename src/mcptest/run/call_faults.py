"""How a tools/call that went wrong is told: one line whose start sets the gap (docs/suites.md).

Text starting with `protocol:` makes the runner's gap `protocol`; anything else is `transport`.

Invalid protocol output: a message the transport could not parse (a log line on stdout, JSON
that is no JSON-RPC message, a line over the size bound without a readable id) is shown, cut
to 160 characters, as what the server wrote instead of its answer.

Answers too large: over `max_result_bytes` an answer is never graded; `bounded_stdio` skips such
a line as it streams in, and `bounded_http` stops reading such a body or skips such an event.

HTTP failures during a call, told apart from the tool's own JSON-RPC errors: the SDK's
Streamable HTTP transport turns a 401, 403 or 500, an HTML page, a body that is not JSON-RPC, or
an SSE stream cut before the answer into a synthesized JSON-RPC error on the request ("-32603
Server returned an error response"). Taken at face value that reads as the tool's fault
(`failed`, gap `tool-error`) and the HTTP status is lost. Those synthesized errors are known by
their code and message, and the status the transport's response hook recorded (`HttpStatusLog`,
with `WWW-Authenticate`) becomes the test's error.
"""

from __future__ import annotations

import json
import re
from typing import Any

import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED, INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR
from pydantic import ValidationError

from mcptest.run.bounded_stdio import HEAD_BYTES, TOO_LARGE, TOO_LARGE_PREFIX, answer_id
from mcptest.run.connect import HttpStatusLog, one_line, one_line_error
from mcptest.suite.models import RemoteServer, StdioServer

GARBLED = "protocol: the server wrote invalid protocol output instead of an answer: "


def unparsed_output(message: Any) -> str | None:
    """What the server wrote, when `message` is a line the transport could not parse."""
    if isinstance(message, ValidationError):
        errors = message.errors()
        seen = errors[0].get("input") if errors else None
        if isinstance(seen, str):
            return one_line(repr(seen), 160)
        if seen is not None:
            return one_line(json.dumps(seen, ensure_ascii=False, default=str), 160)
        return one_line(one_line_error(message), 160)
    if isinstance(message, ValueError):  # a line `bounded_stdio` could not take
        return one_line(str(message), 160)
    return None


def unreadable_answer(message: Any) -> str | None:
    """Why a message the transport could not parse cannot be read, when it answers a request
    of ours (it names an `id` and no `method`); None for other output, such as a log line."""
    if not isinstance(message, ValidationError):
        return None
    errors = message.errors()
    first: dict[str, Any] = dict(errors[0]) if errors else {}
    seen = first.get("input")
    if isinstance(seen, str):
        head = seen[:HEAD_BYTES]
        answer = min((i for i in (head.find('"result"'), head.find('"error"')) if i >= 0),
                     default=-1)
        request = head.find('"method"')
        if answer_id(head.encode()) is None or answer < 0 or 0 <= request < answer:
            return None
        return str(first.get("msg")) if first.get("type") == "json_invalid" else None
    if isinstance(seen, dict) and "id" in seen and "method" not in seen:
        return "not a JSON-RPC answer (neither `result` nor `error`, or either malformed): " + \
            one_line(json.dumps(seen, ensure_ascii=False, default=str), 160)
    return None


_JSON_FAULT = re.compile(r"Invalid JSON: [^\[\]]*? at line \d+ column \d+")


def unreadable_error(cause: BaseException) -> str | None:
    """Why an answer during startup could not be read: the parser's positioned complaint when
    the SDK's HTTP transports could not parse it (their PARSE_ERROR stands in for it), or its
    size past `max_result_bytes`; None for any other error."""
    if not isinstance(cause, MCPError):
        return None
    if cause.code == TOO_LARGE and cause.error.message.startswith(TOO_LARGE_PREFIX):
        size, _, bound = cause.error.message.removeprefix(TOO_LARGE_PREFIX).partition(
            " bytes is over the ")
        return f"it is {size} bytes, over max_result_bytes ({bound.partition('-')[0]})"
    found = _JSON_FAULT.search(cause.error.message) if cause.code == PARSE_ERROR else None
    return found.group(0) if found else None


def too_large_line(server: str, bound: int, detail: str) -> str:
    """The test's line for an answer over the bound; `detail` is `too_large_text`'s (the bound
    it names is lower than `max_result_bytes` on the SSE transport, whose SDK limits events)."""
    size, _, rest = detail.removeprefix(TOO_LARGE_PREFIX).partition(" bytes")
    met = rest.partition("over the ")[2].partition("-byte")[0].replace(",", "")
    key = f"servers.{server}.max_result_bytes"
    if met.isdigit() and int(met) < bound:
        return (f"protocol: the tool's answer is {size} bytes, over the {int(met):,}-byte event "
                f"limit of the SSE transport (the MCP SDK's; {key} cannot raise it); it was "
                "skipped and not graded (transport: streamable-http has no such limit)")
    return (f"protocol: the tool's answer is {size} bytes, over {key} ({bound:,}); it was "
            f"skipped and not graded (raise {key} if answers this big are expected)")


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


def lost_message(cause: BaseException, spec: StdioServer | RemoteServer) -> str:
    """The connection broke under a call (peer gone, HTTP read timeout)."""
    if isinstance(cause, httpx2.ReadTimeout) and isinstance(spec, RemoteServer):
        return (f"connection lost: no HTTP response data within {spec.http.timeout:g}s "
                "(http.timeout)")
    return one_line(f"connection lost: {one_line_error(cause)}")


def timeout_text(timeout: float, noise: str | None) -> str:
    """No answer in time, with what the server printed instead if it printed anything."""
    text = f"no answer within {timeout:g}s"
    if noise:
        text += f"; the server sent output that is not JSON-RPC: {noise}"
    return one_line(text, 400)


def closed_message(transport: str, stderr_lines: str) -> str:
    """The server went away: exited (stdio) or closed the connection (HTTP)."""
    where = ("the server exited or closed its output" if transport == "stdio"
             else "the server closed the connection")
    return one_line(f"connection closed: {where}"
                    + (f"; stderr: {stderr_lines}" if stderr_lines else ""))


def startup_timeout_message(limit: float, phase: str, last_error: str | None,
                            stderr_lines: str) -> str:
    """A server not ready within `startup_timeout`: what it was doing, and what it said."""
    msg = f"not ready within {limit:g}s (startup_timeout) while {phase}"
    if last_error:
        msg += f"; last response: {last_error}"
    return one_line(msg + (f"; stderr: {stderr_lines}" if stderr_lines else ""), 500)
