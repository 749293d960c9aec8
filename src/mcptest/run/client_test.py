"""A server test's request with its client side: the test's answers come first while it runs,
what the server asked and notified becomes targets, and the client side's own checks join the
verdict (docs/suites.md#the-client-side).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from mcptest.suite.models import ListTest, PromptTest, ResourceTest, ToolTest

if TYPE_CHECKING:
    from mcptest.plan import PlannedTest
    from mcptest.report.models import Status
    from mcptest.run.client_side import Exchange
    from mcptest.run.requests import CallOutcome
    from mcptest.run.session import ServerConnection
    from mcptest.suite.models.client import PerTestClient


@dataclass(frozen=True)
class Asks:
    """Which of the client side's targets a test reads."""

    client: bool
    notifications: bool
    progress: bool


def _root(target: str) -> str:
    return target.split(".", 1)[0].split("[", 1)[0]


def asks(test: PlannedTest) -> Asks:
    targets = [p.assertion.target for p in test.assertions]
    return Asks(client=any(_root(t) == "client" for t in targets),
                notifications=any(_root(t) == "notifications" for t in targets),
                progress=any(t.startswith("notifications.progress") for t in targets))


def own_client(test: PlannedTest) -> PerTestClient | None:
    spec = test.spec
    return None if isinstance(spec, ListTest) else getattr(spec, "client", None)


def tampered(test: PlannedTest) -> bool:
    """Whether the test sends an altered `requestState` (its rejection is the expected answer)."""
    own = own_client(test)
    return own is not None and own.request_state == "tampered"


async def call(conn: ServerConnection, test: PlannedTest,
               timeout: float) -> tuple[CallOutcome, Exchange]:
    """Send the test's request with its own answers first; what it met comes back too."""
    from mcptest.run.rounds import exchange
    from mcptest.run.surface_calls import produce

    spec = test.spec
    own = own_client(test)
    progress = asks(test).progress or (own is not None and own.progress)
    conn.client.begin(own, timeout)
    try:
        if isinstance(spec, ToolTest):
            outcome = await exchange(
                conn, "tools/call", {"name": spec.tool, "arguments": spec.args}, timeout,
                progress=progress, tampered=tampered(test),
                cancel_task=spec.task is not None and spec.task.cancel)
        elif isinstance(spec, ResourceTest | PromptTest | ListTest):
            outcome = await produce(conn, spec, progress=progress, tampered=tampered(test))
        else:
            raise TypeError(f"{test.kind} tests send no server request")
    finally:
        conn.client.begin(None)
    return outcome, conn.client.take()


def with_client(produced: dict[str, Any], test: PlannedTest, outcome: CallOutcome,
                seen: Exchange) -> dict[str, Any]:
    """`produced` plus `task`, `client` and `notifications` (each only when there is something,
    or when a target reads it)."""
    want = asks(test)
    out = {**produced, **seen.produced(client=want.client, notifications=want.notifications)}
    if outcome.task is not None:
        out["task"] = outcome.task
    return out


ACCEPTED_TAMPERED = ("the server accepted a tampered requestState: it answered the altered "
                     "retry with a result instead of rejecting it")


def client_verdict(test: PlannedTest, outcome: CallOutcome, seen: Exchange, status: Status,
                   message: str | None) -> tuple[Status, str | None]:
    """The test's status and message after the client side's own checks: a request no answer
    matched fails it, and so does a tampered `requestState` the server accepted (a protocol
    fault: its message starts with `ACCEPTED_TAMPERED`)."""
    if seen.problems:
        lines = "; ".join(seen.problems)
        return "failed", lines if status == "passed" or not message else f"{lines}; {message}"
    if not tampered(test) or status in ("error", "skipped"):
        return status, message
    if outcome.rounds == 0:
        return "error", ("the server never answered with an InputRequiredResult, so there was no "
                         "requestState to tamper with (client.request_state: tampered)")
    result = outcome.result or {}
    if outcome.error is None and result.get("resultType", "complete") == "complete" and (
            result.get("isError") is not True):
        text = ACCEPTED_TAMPERED
        return "failed", text if status == "passed" or not message else f"{text}; {message}"
    return status, message
