"""A test's exchange with its server, message by message, as the viewer draws it
(docs/view.md). Part of the canonical report."""

from __future__ import annotations

from typing import Any, Literal

from mcptest.report.base import Millis, Model


class WireStep(Model):
    """One JSON-RPC message between mcptest and the server while a test's request was in flight."""

    at_ms: Millis
    """When it passed, in milliseconds after the test's request was about to be sent."""
    direction: Literal["sent", "received"]
    """`sent`: mcptest to the server (requests, and answers to the server's own requests);
    `received`: the server to mcptest."""
    kind: Literal["request", "result", "error", "notification", "unparsed"]
    """What the message is: a `request` (from the server: a server→client request such as
    `sampling/createMessage`), its `result` or `error`, a `notification`, or a line the
    transport could not parse (`unparsed`)."""
    method: str | None = None
    """The method of a request or notification, or of the request a result or error answers."""
    request_id: str | int | None = None
    """The JSON-RPC id of a request, result or error."""
    body: Any = None
    """`params`, `result` or `error` as sent (redacted, shortened like `response`)."""
