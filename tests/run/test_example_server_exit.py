"""The example server ends its process itself once its client closes stdin (`_exit_now`:
the interpreter's teardown skipped, the client waits for the exit): it exits 0, says nothing
more on stdout or stderr, and loses nothing it wrote before (what is still in flight when stdin
closes is the SDK's to drop, with or without `_exit_now`)."""

from __future__ import annotations

import json
import subprocess
import sys

from support.cli_run import SERVER

CALLS = 20


def test_after_stdin_closes_every_answer_is_delivered_and_the_exit_is_clean() -> None:
    p = subprocess.Popen([sys.executable, str(SERVER)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert p.stdin is not None and p.stdout is not None

    def send(message: dict[str, object]) -> None:
        assert p.stdin is not None
        p.stdin.write(json.dumps(message) + "\n")
        p.stdin.flush()

    send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}})
    assert json.loads(p.stdout.readline())["id"] == 0
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    for i in range(1, CALLS + 1):
        send({"jsonrpc": "2.0", "id": i, "method": "tools/call",
              "params": {"name": "add", "arguments": {"a": i, "b": 1}}})
    answers = [json.loads(p.stdout.readline()) for _ in range(CALLS)]
    out, err = p.communicate(timeout=60)  # closes stdin, reads to EOF, reaps the process
    assert sorted(a["id"] for a in answers) == list(range(1, CALLS + 1))
    assert all(a["result"]["structuredContent"] == {"result": a["id"] + 1} for a in answers)
    assert (p.returncode, out, err) == (0, "", "")
