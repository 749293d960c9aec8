"""A cancelled job's SIGTERM reaches the Action's first process, not the CLI it runs: run_cli
passes it on (action/process.py), so the CLI stops and still writes its reports. The CLI here
is a stand-in that, once ready, signals its parent (this test's process) and waits for the
signal to come back; this process's own SIGTERM handler records anything that stays here."""

from __future__ import annotations

import io
import os
import signal
import sys
from pathlib import Path

import pytest

from mcptest.action.process import run_cli

CHILD = """
import os, signal, sys
def back(signum, _frame):
    print("the CLI got", signal.Signals(signum).name, flush=True)
    sys.exit(130)
signal.signal(signal.SIGTERM, back)
signal.alarm(30)  # without the signal back, it ends here (exit 142), not never
os.kill(os.getppid(), signal.SIGTERM)
while True:
    signal.pause()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_to_the_action_is_passed_on_to_the_cli(tmp_path: Path) -> None:
    seen: list[int] = []

    def record(signum: int, _frame: object) -> None:
        seen.append(signum)

    previous = signal.signal(signal.SIGTERM, record)
    try:
        out = io.StringIO()
        code = run_cli([sys.executable, "-c", CHILD], [], tmp_path, dict(os.environ), out)
        after = signal.getsignal(signal.SIGTERM)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert code == 130, out.getvalue()
    assert "the CLI got SIGTERM" in out.getvalue()
    assert seen == []  # passed on, not kept
    assert after is record  # and the handler from before is back
