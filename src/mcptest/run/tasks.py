"""Following a task to its end: the `io.modelcontextprotocol/tasks` extension
(docs/suites.md#tasks).

A server that negotiated the extension may answer `tools/call` with a `CreateTaskResult`
(`resultType: "task"`). mcptest then polls `tasks/get`, waiting the `pollIntervalMs` the server
last gave between polls, until the task is `completed` (its `result` is the call's answer),
`failed` (its `error` is) or `cancelled`, or until the test's timeout. A task that asks for input
(`input_required` with `inputRequests`) is answered from the same `client:` answers, through
`tasks/update`. With `task: {cancel: true}` the test sends `tasks/cancel` right after the task is
created and keeps polling: cancellation is cooperative, so the end state is the server's to say.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import anyio
import mcp_types as types
from pydantic import Field, TypeAdapter, ValidationError

from mcptest.run.connect import one_line
from mcptest.run.requests import CallOutcome

if TYPE_CHECKING:
    from mcptest.run.client_side import Via
    from mcptest.run.session import ServerConnection

TERMINAL = frozenset({"completed", "failed", "cancelled"})
DEFAULT_POLL_MS = 1000
"""Between polls when the server suggests no `pollIntervalMs`."""
MIN_POLL_MS = 10
"""A server suggesting 0 ms still cannot make mcptest spin."""
_KEPT_OUT = ("result", "error", "inputRequests", "resultType", "_meta")
_REQUESTS: TypeAdapter[dict[str, types.InputRequest]] = TypeAdapter(
    dict[str, types.InputRequest])

Answer = Callable[["ServerConnection", str, types.InputRequest, "Via"],
                  Awaitable[types.InputResponse | types.ErrorData]]


class TaskParams(types.RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateTaskParams(TaskParams):
    input_responses: dict[str, Any] = Field(alias="inputResponses")


class GetTaskRequest(types.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    params: TaskParams
    name_param = "taskId"  # Mcp-Name on Streamable HTTP, so the request reaches the task's host


class CancelTaskRequest(types.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    params: TaskParams
    name_param = "taskId"


class UpdateTaskRequest(types.Request[UpdateTaskParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    params: UpdateTaskParams
    name_param = "taskId"


def is_task(outcome: CallOutcome) -> bool:
    return outcome.result is not None and outcome.result.get("resultType") == "task"


def _wait_s(state: dict[str, Any]) -> float:
    ms = state.get("pollIntervalMs")
    if not isinstance(ms, int | float) or isinstance(ms, bool):
        ms = DEFAULT_POLL_MS
    return max(float(ms), MIN_POLL_MS) / 1000


def _answered(outcome: CallOutcome) -> dict[str, Any]:
    """What an acknowledgement brought back, as a target (`task.cancel`)."""
    if outcome.result is not None:
        return outcome.result
    if outcome.error is not None:
        return {"error": outcome.error}
    return {"transport_error": outcome.transport_error}


async def follow_task(conn: ServerConnection, created: dict[str, Any], deadline: float, *,
                      cancel: bool, answer: Answer) -> CallOutcome:
    """Poll the task `created` names until it ends or `deadline` (anyio clock) passes."""
    task_id = created.get("taskId")
    if not isinstance(task_id, str) or not task_id:
        return CallOutcome(duration_ms=0.0,
                           transport_error="protocol: a CreateTaskResult without a taskId")

    def left() -> float:
        return max(deadline - anyio.current_time(), 0.001)

    params = TaskParams(taskId=task_id)
    extra: dict[str, Any] = {"created": created, "polls": 0}
    if cancel:
        extra["cancel"] = _answered(await conn.send(CancelTaskRequest(params=params), left()))
    state, answered = created, set[str]()
    while state.get("status") not in TERMINAL:
        if state.get("status") == "input_required":
            failure = await _give_input(conn, task_id, state, answered, left(), answer)
            if failure is not None:
                return CallOutcome(duration_ms=0.0, transport_error=failure,
                                   task=_task(state, extra))
        wait = _wait_s(state)
        if anyio.current_time() + wait >= deadline:
            return _still(task_id, state, extra)
        await anyio.sleep(wait)  # the server's suggested interval between polls
        got = await conn.send(GetTaskRequest(params=params), left())
        extra["polls"] += 1
        if got.timed_out:
            return _still(task_id, state, extra)
        if got.result is None:
            return got.model_copy(update={"task": _task(state, extra)})
        state = got.result
    task = _task(state, extra)
    if state["status"] == "completed":
        result = state.get("result")
        if not isinstance(result, dict):
            return CallOutcome(duration_ms=0.0, task=task, transport_error=(
                "protocol: a completed task without a `result` object"))
        return CallOutcome(duration_ms=0.0, result=result, task=task)
    if state["status"] == "failed":
        error = state.get("error")
        return CallOutcome(duration_ms=0.0, task=task,
                           error=error if isinstance(error, dict) else {"message": str(error)})
    return CallOutcome(duration_ms=0.0, task=task)


def _still(task_id: str, state: dict[str, Any], extra: dict[str, Any]) -> CallOutcome:
    """The test's timeout ran out before the task ended."""
    return CallOutcome(duration_ms=0.0, timed_out=True, task=_task(state, extra), transport_error=(
        f"the task {task_id[:80]!r} was still {state.get('status')!s} when the test's timeout "
        f"ran out ({extra['polls']} polls of tasks/get)"))


def _task(state: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """The `task` target: the last state the server reported, plus how it got there."""
    return {**{k: v for k, v in state.items() if k not in _KEPT_OUT}, **extra}


async def _give_input(conn: ServerConnection, task_id: str, state: dict[str, Any],
                      answered: set[str], timeout: float, answer: Answer) -> str | None:
    """Answer the task's new `inputRequests` with `tasks/update`; a failure's text, or None."""
    try:
        requests = _REQUESTS.validate_python(state.get("inputRequests") or {})
    except ValidationError as e:
        return one_line(f"protocol: invalid inputRequests on task {task_id!r}: {e}")
    responses: dict[str, Any] = {}
    for key, request in requests.items():
        if key in answered:
            continue
        reply = await answer(conn, key, request, "task")
        if isinstance(reply, types.ErrorData):
            return one_line(f"the client could not answer the task's input request: "
                            f"{reply.message}")
        responses[key] = reply.model_dump(by_alias=True, mode="json", exclude_none=True)
        answered.add(key)
    if not responses:
        return None
    ack = await conn.send(UpdateTaskRequest(params=UpdateTaskParams(
        taskId=task_id, inputResponses=responses)), timeout)
    if ack.result is None:
        return one_line(f"tasks/update failed: {ack.error or ack.transport_error}")
    return None
