"""A cancelled job's SIGTERM reaches the Action's first process, not the CLI it runs: run_cli
passes it on (action/process.py), so the CLI stops and still writes its reports. The CLI here
is a stand-in that, once ready, signals its parent (this test's process) and waits for the
signal to come back; this process's own SIGTERM handler records anything that stays here."""

from __future__ import annotations

import io
import json
import os
import signal
import sys
from pathlib import Path

import pytest
from support.cli_run import STDIO_HEAD

from mcptest.action.main import CLI_BOOT
from mcptest.action.process import run_cli

CHILD = """
import os, signal, sys
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})  # as main() does
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


class _StopAt(io.StringIO):
    """The Action's log: once the CLI's output shows `marker`, SIGTERM to this process, the
    Action's, as a cancelled job sends it."""

    def __init__(self, marker: str) -> None:
        super().__init__()
        self.marker = marker

    def write(self, text: str) -> int:
        sent = self.marker in self.getvalue()
        n = super().write(text)
        if not sent and self.marker in self.getvalue():
            os.kill(os.getpid(), signal.SIGTERM)
        return n


@pytest.mark.slow  # a real CLI process
@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize("marker", [
    "import time: self [us]",  # `-X importtime`'s first line: the interpreter is starting
    "| mcptest.api.options\n",  # the run command's modules: main() runs
], ids=["interpreter-start", "main"])
def test_a_cancel_while_the_actions_cli_starts_still_leaves_its_reports(
        tmp_path: Path, marker: str) -> None:
    """The Action starts its CLI with the signals blocked, and the CLI's process holds them
    from its first line, as the console script does (`CLI_BOOT`): the run stops as it starts
    and writes every report, even when the cancel came before main() did."""
    suite = tmp_path / "suite.yml"
    suite.write_text(STDIO_HEAD + """tools:
  - {name: greets Ada, server: ex, tool: greet, args: {name: Ada}}
""", encoding="utf-8")
    out = _StopAt(marker)
    seen: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: seen.append(signum))
    try:
        code = run_cli([sys.executable, "-X", "importtime", "-c", CLI_BOOT],
                       ["run", str(suite), "--reporter", "json", "--output", "run.json"],
                       tmp_path, {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, out)
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert code == 130, out.getvalue()[-2000:]
    assert seen == []
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["summary"]["interrupted"] == "SIGTERM"
    assert [t["status"] for t in data["tests"]] == ["skipped"]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_the_action_puts_its_own_signal_mask_back_as_it_was(tmp_path: Path) -> None:
    """Blocked only across starting the CLI: a mask the Action had (here SIGINT blocked) is
    the one it has after, and SIGTERM is not left blocked."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        assert run_cli([sys.executable, "-c", "pass"], [], tmp_path, dict(os.environ),
                       io.StringIO()) == 0
        assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before | {signal.SIGINT}
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
