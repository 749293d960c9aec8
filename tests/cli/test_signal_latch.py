"""SIGTERM/SIGINT before the run takes signals itself (cli/signal_latch.py): the reports are
still written. The start of a real `mcptest run` process is the point, so it is one; it is
stopped once `-X importtime` shows it importing its command, i.e. inside `main()`, ~0.2 s
before the run could take a signal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mcptest.cli.signal_latch import SignalLatch

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"

posix = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@posix
@pytest.mark.slow  # a subprocess
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_the_command_imports_still_writes_every_report(
        tmp_path: Path, sig: signal.Signals) -> None:
    path = tmp_path / "suite.yml"
    path.write_text(f"""servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {{name: Ada}}
""", encoding="utf-8")
    out, junit = tmp_path / "run.json", tmp_path / "junit.xml"
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "mcptest", "run", str(path),
         "--reporter", "json", "--output", str(out), "--reporter", "junit", "--output",
         str(junit)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.stderr is not None
    for line in proc.stderr:  # the run command's own modules: main() is running
        if line.rstrip().endswith("| mcptest.api.options"):
            break
    else:
        pytest.fail("the run command's modules were never imported")
    proc.send_signal(sig)
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, rest[-2000:]
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["summary"]["interrupted"] == sig.name
    [test] = data["tests"]
    assert test["status"] == "skipped"
    assert f"interrupted ({sig.name})" in test["message"]
    assert 'skipped="1"' in junit.read_text(encoding="utf-8")
    assert f"mcptest: {sig.name} received: stopping, writing reports" in rest


@posix
def test_a_held_signal_is_delivered_again_when_the_latch_is_let_go() -> None:
    """A command that never reaches a run must still stop: the held signal meets the handler
    the process had before the latch (here one that records it)."""
    seen: list[int] = []

    def record(signum: int, _frame: object) -> None:
        seen.append(signum)

    previous = signal.signal(signal.SIGTERM, record)
    try:
        latch = SignalLatch().install()
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGTERM)
        assert seen == []  # held
        latch.release()
        assert seen == [signal.SIGTERM]  # once
        assert signal.getsignal(signal.SIGTERM) is record
    finally:
        signal.signal(signal.SIGTERM, previous)


@posix
def test_a_taken_signal_is_not_delivered_again() -> None:
    seen: list[int] = []

    def record(signum: int, _frame: object) -> None:
        seen.append(signum)

    previous = signal.signal(signal.SIGTERM, record)
    try:
        latch = SignalLatch().install()
        signal.raise_signal(signal.SIGTERM)
        assert latch.take() == "SIGTERM"
        assert latch.take() is None
        latch.release()
        assert seen == []
        assert signal.getsignal(signal.SIGTERM) is record
    finally:
        signal.signal(signal.SIGTERM, previous)
