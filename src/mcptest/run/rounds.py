"""One test's request with the rounds 2026-07-28 allows: `InputRequiredResult` answered and
retried, and a task followed to its end (docs/suites.md#the-client-side).

A server that needs input answers `tools/call`, `prompts/get` or `resources/read` with
`resultType: "input_required"`, its `inputRequests` and an opaque `requestState`. The retry loop
is the MCP SDK's own (`run_input_required_driver`, what `mcp.Client` uses): each embedded request
goes through the session's `dispatch_input_request` (the same callbacks a pushed request
reaches, run/client_side.py) and the call is sent again with the answers and the state
untouched; mcptest only supplies the raw-result send. With `request_state: tampered` the state
is altered before the first retry and that retry's answer is the test's answer: a server must
reject it.

The test's timeout bounds the whole exchange: every round and every poll of a task.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import anyio
import mcp_types as types
from mcp.client._input_required import (  # the SDK's MRTR loop (not re-exported by mcp.client)
    DEFAULT_INPUT_REQUIRED_MAX_ROUNDS,
    InputRequiredRoundsExceededError,
    run_input_required_driver,
)
from mcp.client.session import ClientRequestContext
from mcp.shared.exceptions import MCPError
from pydantic import ValidationError

from mcptest.run.client_side import VIA, Via
from mcptest.run.connect import one_line
from mcptest.run.requests import CallOutcome, build_request
from mcptest.run.tasks import follow_task, is_task

if TYPE_CHECKING:
    from mcptest.run.session import ServerConnection


def tamper(state: str) -> str:
    """`state` with its middle character changed (a different one of the same alphabet)."""
    mid = len(state) // 2
    return state[:mid] + ("B" if state[mid] == "A" else "A") + state[mid + 1:]


def pending_input(outcome: CallOutcome) -> types.InputRequiredResult | str | None:
    """The `InputRequiredResult` an outcome holds, a protocol fault's text, or None."""
    raw = outcome.result
    if raw is None or raw.get("resultType") != "input_required":
        return None
    try:
        return types.InputRequiredResult.model_validate(raw)
    except ValidationError as e:
        return one_line(f"protocol: invalid InputRequiredResult: {e}")


async def answer_input(conn: ServerConnection, key: str, request: types.InputRequest,
                       via: Via) -> types.InputResponse | types.ErrorData:
    """Answer one embedded request through the SDK session's callback routing."""
    session = conn.session
    if session is None:
        return types.ErrorData(code=types.INTERNAL_ERROR, message="not connected")
    token = VIA.set(via)
    try:
        meta = request.params.meta if request.params is not None else None
        ctx = ClientRequestContext(session=session, request_id=key, meta=meta)
        return await session.dispatch_input_request(ctx, request)
    finally:
        VIA.reset(token)


async def exchange(conn: ServerConnection, method: str, params: dict[str, Any],
                   timeout: float, *, progress: bool = False, tampered: bool = False,
                   cancel_task: bool = False) -> CallOutcome:
    """Send `method`; answer input rounds; follow a task. Failures come back as data."""
    started = time.perf_counter()
    deadline = anyio.current_time() + timeout
    rounds = 0

    def left() -> float:
        return max(deadline - anyio.current_time(), 0.001)

    def done(outcome: CallOutcome) -> CallOutcome:
        return outcome.model_copy(update={
            "rounds": rounds, "duration_ms": (time.perf_counter() - started) * 1000})

    async def retry(responses: types.InputResponses | None,
                    state: str | None) -> CallOutcome | types.InputRequiredResult:
        nonlocal rounds
        rounds += 1
        if tampered:
            if not state:
                return CallOutcome(duration_ms=0.0, transport_error=(
                    "protocol: the InputRequiredResult carries no requestState to tamper with"))
            state = tamper(state)
        again = await conn.send(build_request(method, {
            **params, "inputResponses": responses, "requestState": state}), left(),
            progress=progress)
        found = None if tampered else pending_input(again)
        if isinstance(found, str):
            return again.model_copy(update={"result": None, "transport_error": found})
        return found if found is not None else again

    async def dispatch(key: str, request: types.InputRequest
                       ) -> types.InputResponse | types.ErrorData:
        return await answer_input(conn, key, request, "input_required")

    outcome = await conn.send(build_request(method, params), timeout, progress=progress)
    first = pending_input(outcome)
    if isinstance(first, str):
        return done(CallOutcome(duration_ms=0.0, transport_error=first))
    if first is not None:
        try:
            outcome = await run_input_required_driver(
                first, dispatch=dispatch, retry=retry,
                max_rounds=DEFAULT_INPUT_REQUIRED_MAX_ROUNDS)
        except InputRequiredRoundsExceededError:
            return done(CallOutcome(duration_ms=0.0, transport_error=(
                f"protocol: the server still asked for input after "
                f"{DEFAULT_INPUT_REQUIRED_MAX_ROUNDS} rounds")))
        except MCPError as e:
            return done(CallOutcome(duration_ms=0.0, transport_error=one_line(
                f"the client could not answer the server's input request: {e.error.message}")))
    if method == "tools/call" and is_task(outcome):
        if "tasks" not in conn.client.config.capabilities:  # never polled: it was not offered
            return done(outcome.model_copy(update={"result": None, "transport_error": (
                "protocol: the server answered with a task, but this client never declared "
                "the tasks extension (client.capabilities)")}))
        outcome = await follow_task(conn, outcome.result or {}, deadline, cancel=cancel_task,
                                    answer=answer_input)
    return done(outcome)
