"""Tool tests on a task-capable server (the `io.modelcontextprotocol/tasks` extension), run as a
user runs them: the stand-in `task_server.py` creates a task for each call of a client that
declares the extension; mcptest polls it honouring `pollIntervalMs` and the test asserts its
terminal state and result (docs/suites.md#tasks)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_run import run_json
from support.servers import TASK_SERVER
from support.task_server import POLL_MS

pytestmark = pytest.mark.slow  # starts real servers

SERVER = json.dumps([sys.executable, str(TASK_SERVER)])


def test_create_poll_complete_cancel_and_fail(tmp_path: Path) -> None:
    suite = tmp_path / "tasks.yml"
    suite.write_text(f"""servers:
  jobs:
    command: {SERVER}
    client:
      elicitation: [{{match: {{message: delete}}, action: accept, content: {{sure: true}}}}]
  plain:
    command: {SERVER}
tools:
  - name: completes
    server: jobs
    tool: report
    args: {{topic: bees}}
    expect:
      - {{target: task.status, matcher: {{exact: completed}}}}
      - {{target: task.polls, matcher: {{exact: 2}}}}
      - {{target: task.created.status, matcher: {{exact: working}}}}
      - {{target: "result.content[0].text", matcher: {{exact: report for bees is ready}}}}
  - name: cancelled
    server: jobs
    tool: forever
    task: {{cancel: true}}
    expect:
      - {{target: task.status, matcher: {{exact: cancelled}}}}
      - {{target: task.cancel.resultType, matcher: {{exact: complete}}}}
  - name: asks for input while it runs
    server: jobs
    tool: confirm
    expect:
      - {{target: task.status, matcher: {{exact: completed}}}}
      - {{target: "result.content[0].text", matcher: {{exact: "confirmation: ('accept', True)"}}}}
      - {{target: "client.elicitations[0].via", matcher: {{exact: task}}}}
  - name: fails with a JSON-RPC error
    server: jobs
    tool: broken
    expect:
      - {{target: task.status, matcher: {{exact: failed}}}}
      - {{target: error.code, matcher: {{exact: -32603}}}}
  - name: still working at the timeout
    server: jobs
    tool: forever
    timeout: 300ms
  - name: gaps between polls
    server: jobs
    tool: polls
  - name: a client without the extension gets a plain answer
    server: plain
    tool: report
    args: {{topic: bees}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: report for bees is ready}}}}
      - {{target: task.status, matcher: {{exact: completed}}}}
""", encoding="utf-8")
    done, report = run_json(suite)
    got = {t["name"]: t for t in report["tests"]}
    for name in ("completes", "cancelled", "asks for input while it runs",
                 "fails with a JSON-RPC error", "gaps between polls"):
        assert got[name]["status"] == "passed", (name, got[name].get("message"),
                                                 got[name].get("assertions"))
    late = got["still working at the timeout"]
    assert late["status"] == "error"
    assert "was still working when the test's timeout ran out" in late["message"]
    assert late["response"]["task"]["status"] == "working"
    plain = got["a client without the extension gets a plain answer"]
    assert plain["status"] == "failed"  # no task was created: `task` is not there to read
    missing = next(a for a in plain["assertions"] if a["target"] == "task.status")
    assert missing["message"].startswith("`task` is absent")
    # mcptest waited at least the suggested interval before every poll (the server's own
    # clock, between the requests it received)
    gaps = json.loads(got["gaps between polls"]["response"]["result"]["content"][0]["text"])
    measured = [gap for task_gaps in gaps.values() for gap in task_gaps]
    assert len(measured) >= 3
    assert min(measured) >= POLL_MS - 1
    assert done.returncode == 1
