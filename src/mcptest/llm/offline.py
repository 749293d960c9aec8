"""What the model client and its callers need of a replay without loading the cassettes: the
route of a model that cannot be reached now, and the error of a request no cassette answers.

A run without `--models` never imports the cassette machinery (`llm/cassette.py`, its file
format, codec and diffs); these two are checked on every request, so they live here.
"""

from __future__ import annotations

from mcptest.errors import McpTestError
from mcptest.llm.routing import Route


class NotRecorded(McpTestError):
    """A request its cassette cannot answer. `deferred`: the model cannot be reached now and
    nothing was recorded for it, so it is deferred as any unreachable model is."""

    def __init__(self, message: str, *, deferred: bool = False) -> None:
        self.deferred = deferred
        super().__init__(message)


class OfflineRoute(Route):
    """A model that cannot be reached now (no key, no gateway), asked in a replay: answered from
    the cassette, or deferred with `reason` when the cassette has no answer."""

    reason: str
