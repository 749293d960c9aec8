"""The MCP SDK's own log records stay out of the user's terminal (docs/decisions.md, Running).

The SDK logs a full traceback (`logger.exception`) for every stdout line of a stdio server that
is not JSON-RPC, and for every HTTP body it cannot parse. Those faults reach mcptest anyway, as
values the session hands to its message handler, and become one line on the test that met them
(`protocol: the server wrote invalid protocol output …`). So the `mcp` logger gets a handler of
its own that drops records, and stops propagating to the root logger (whose last-resort handler
prints to stderr). `MCPTEST_DEBUG=1` keeps them, for debugging the SDK itself.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping

SDK_LOGGERS = ("mcp", "httpx2")


class _Dropped(logging.NullHandler):
    """Marks loggers this module has configured (configuring twice changes nothing)."""


def quiet_sdk_logging(env: Mapping[str, str]) -> None:
    """Drop the SDK's log records unless `MCPTEST_DEBUG` is set in `env`."""
    if env.get("MCPTEST_DEBUG"):
        return
    for name in SDK_LOGGERS:
        logger = logging.getLogger(name)
        if not any(isinstance(h, _Dropped) for h in logger.handlers):
            logger.addHandler(_Dropped())
        logger.propagate = False
