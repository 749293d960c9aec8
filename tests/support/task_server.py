"""A task-capable stand-in (the SDK's MCPServer, stdio, 2026-07-28) speaking the
`io.modelcontextprotocol/tasks` extension as its specification describes it: a `tools/call` from
a client that declares the extension is answered with a `CreateTaskResult`
(`resultType: "task"`), and `tasks/get`, `tasks/update` and `tasks/cancel` serve the task.

Tasks move when polled, so every run is the same: `report` works for two polls and then
completes; `forever` works until cancelled; `confirm` asks for a confirmation (an elicitation in
`inputRequests`) and completes with the answer after `tasks/update`; `broken` fails with a
JSON-RPC error. Each task suggests `pollIntervalMs: 20`; the server records when each poll of a
task came, and `polls` (a plain tool, answered at once) tells the gaps between them in ms.

    python task_server.py                 # stdio
    python task_server.py --port 8771     # Streamable HTTP at http://127.0.0.1:8771/mcp
    python task_server.py --careless      # answers with a task even a client that never
                                          # declared the extension (a hostile server)
"""

from __future__ import annotations

import itertools
import sys
import time
import uuid
from collections.abc import Sequence
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.server.extension import Extension, MethodBinding
from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolRequestParams, RequestParams
from pydantic import Field

EXTENSION = "io.modelcontextprotocol/tasks"
POLL_MS = 20
TASK_TOOLS = ("report", "forever", "confirm", "broken")


class TaskParams(RequestParams):
    task_id: str = Field(alias="taskId")


class UpdateParams(TaskParams):
    input_responses: dict[str, Any] = Field(alias="inputResponses")


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Tasks(Extension):
    identifier = EXTENSION

    def __init__(self) -> None:
        self.tasks: dict[str, dict[str, Any]] = {}
        self.poll_times: dict[str, list[float]] = {}

    def methods(self) -> Sequence[MethodBinding]:
        return (MethodBinding("tasks/get", TaskParams, self.get),
                MethodBinding("tasks/cancel", TaskParams, self.cancel),
                MethodBinding("tasks/update", UpdateParams, self.update))

    async def intercept_tool_call(self, params: CallToolRequestParams,
                                  ctx: ServerRequestContext[Any, Any],
                                  call_next: CallNext) -> HandlerResult:
        caps = ctx.session.client_capabilities
        declared = ("--careless" in sys.argv
                    or (caps is not None and EXTENSION in (caps.extensions or {})))
        if params.name not in TASK_TOOLS or not declared:
            return await call_next(ctx)
        task_id = str(uuid.uuid4())
        self.tasks[task_id] = {"tool": params.name, "arguments": params.arguments or {},
                               "polls": 0, "status": "working", "createdAt": _now()}
        self.poll_times[task_id] = []
        return {"resultType": "task", **self._view(task_id)}

    def _view(self, task_id: str) -> dict[str, Any]:
        task = self.tasks[task_id]
        view = {"taskId": task_id, "status": task["status"], "createdAt": task["createdAt"],
                "lastUpdatedAt": _now(), "ttlMs": 60000, "pollIntervalMs": POLL_MS}
        for key in ("statusMessage", "result", "error", "inputRequests"):
            if key in task:
                view[key] = task[key]
        return view

    def _known(self, task_id: str) -> dict[str, Any]:
        if task_id not in self.tasks:
            raise MCPError(code=-32602, message="Failed to retrieve task: Task not found")
        return self.tasks[task_id]

    async def get(self, ctx: ServerRequestContext[Any, Any], params: TaskParams) -> HandlerResult:
        task = self._known(params.task_id)
        self.poll_times[params.task_id].append(time.monotonic())
        task["polls"] += 1
        if task["status"] == "working":
            self._advance(task)
        return self._view(params.task_id)

    def _advance(self, task: dict[str, Any]) -> None:
        tool, polls = task["tool"], task["polls"]
        if tool == "report" and polls >= 2:
            text = f"report for {task['arguments'].get('topic', '?')} is ready"
            task.update(status="completed", statusMessage="done",
                        result={"content": [{"type": "text", "text": text}], "isError": False})
        elif tool == "broken":
            task.update(status="failed", statusMessage="the job crashed",
                        error={"code": -32603, "message": "job crashed"})
        elif tool == "confirm" and "answer" not in task:
            task.update(status="input_required", inputRequests={"ok": {
                "method": "elicitation/create", "params": {
                    "mode": "form", "message": "Really delete the report?",
                    "requestedSchema": {"type": "object",
                                        "properties": {"sure": {"type": "boolean"}},
                                        "required": ["sure"]}}}})
        elif tool == "confirm":
            text = f"confirmation: {task['answer']}"
            task.update(status="completed",
                        result={"content": [{"type": "text", "text": text}], "isError": False})

    async def update(self, ctx: ServerRequestContext[Any, Any],
                     params: UpdateParams) -> HandlerResult:
        task = self._known(params.task_id)
        answer = params.input_responses.get("ok")
        if task["status"] == "input_required" and answer is not None:
            task["answer"] = answer.get("action"), (answer.get("content") or {}).get("sure")
            task["status"] = "working"
            task.pop("inputRequests", None)
        return {}

    async def cancel(self, ctx: ServerRequestContext[Any, Any],
                     params: TaskParams) -> HandlerResult:
        task = self._known(params.task_id)
        if task["status"] not in ("completed", "failed", "cancelled"):
            task.update(status="cancelled", statusMessage="cancelled by the client")
        return {}


tasks = Tasks()
server = MCPServer("task-stand-in", extensions=[tasks])


@server.tool()
def report(topic: str) -> str:
    """Write a report (a task when the client supports tasks)."""
    return f"report for {topic} is ready"


@server.tool()
def forever() -> str:
    """Never finishes as a task; answers at once otherwise."""
    return "done at once"


@server.tool()
def confirm() -> str:
    """Asks for a confirmation while it runs (as a task)."""
    return "no task, no confirmation"


@server.tool()
def broken() -> str:
    """Fails as a task."""
    return "fine without a task"


@server.tool()
def polls() -> dict[str, list[float]]:
    """Milliseconds between the polls of each task, in the order the tasks were created."""
    return {task_id: [round((b - a) * 1000, 1) for a, b in itertools.pairwise(times)]
            for task_id, times in tasks.poll_times.items()}


if __name__ == "__main__":
    if "--port" in sys.argv:
        import uvicorn

        port = int(sys.argv[sys.argv.index("--port") + 1])
        uvicorn.run(server.streamable_http_app(), host="127.0.0.1", port=port,
                    log_level="warning")
    else:
        server.run()
