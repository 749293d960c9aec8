"""`mcptest run --watch` (docs/watch.md): after the first run, editing one test of the suite
reruns exactly that test on the same server process (its pid unchanged), and editing the
server's own source restarts the server and reruns its tests. Read from the process's stdout
as a user's terminal shows it; Ctrl-C (SIGINT) ends the session with exit 0."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.cli_run import KEYLESS, SERVER

pytestmark = pytest.mark.slow  # a watching CLI process and the example server, three cycles

SUITE = """
servers:
  ex:
    command: [{python}, srv/example_server.py]
tools:
  - name: greets
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - {{target: "result.content[0].text", matcher: {{exact: "Hello, Ada!"}}}}
  - name: adds
    server: ex
    tool: add
    args: {{a: 2, b: {b}}}
    expect:
      - {{target: result.structuredContent.result, matcher: {{exact: {sum}}}}}
"""


def _pids(script: Path) -> set[int]:
    """Processes running `script` (the example server) in its project folder, from /proc."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                words = (entry / "cmdline").read_bytes().split(b"\0")
                cwd = os.readlink(entry / "cwd")
            except OSError:
                continue
            if b"srv/example_server.py" in words and cwd == str(script.parent.parent):
                found.add(int(entry.name))
    return found


class Lines:
    """The process's stdout, line by line, as it comes."""

    def __init__(self, proc: subprocess.Popen[str]) -> None:
        self._lines: queue.Queue[str] = queue.Queue()
        self.seen: list[str] = []
        assert proc.stdout is not None
        stream = proc.stdout
        threading.Thread(target=lambda: [self._lines.put(x) for x in stream], daemon=True).start()

    def until(self, prefix: str, timeout: float = 90) -> str:
        while True:
            try:
                line = self._lines.get(timeout=timeout)
            except queue.Empty:
                raise AssertionError(f"no line starting {prefix!r}; saw:\n"
                                     + "".join(self.seen)) from None
            self.seen.append(line)
            if line.startswith(prefix):
                return line.rstrip("\n")


def test_a_suite_edit_reruns_that_test_on_the_warm_server_and_a_server_edit_restarts_it(
        tmp_path: Path) -> None:
    (tmp_path / "srv").mkdir()
    server = tmp_path / "srv" / "example_server.py"
    shutil.copy(SERVER, server)
    suite = tmp_path / "suite.yml"
    python = json.dumps(sys.executable)
    suite.write_text(SUITE.format(python=python, b=3, sum=5), encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", "suite.yml", "--watch", "--reporter", "pretty"],
        cwd=tmp_path, env=dict(KEYLESS), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        text=True)
    lines = Lines(proc)
    try:
        first = lines.until("mcptest: cycle 1:")
        assert first.endswith("reran 2 test(s): suite.yml::tool::greets, suite.yml::tool::adds")
        lines.until("mcptest: 1 server(s) warm (ex); waiting for changes")
        [pid] = _pids(server)

        # one test of the suite changes: it alone reruns, on the same server process
        suite.write_text(SUITE.format(python=python, b=4, sum=6), encoding="utf-8")
        second = lines.until("mcptest: cycle 2:")
        assert second == "mcptest: cycle 2: reran 1 test(s): suite.yml::tool::adds"
        assert any(x.startswith("✓ PASS  adds") for x in lines.seen[-20:]), lines.seen
        assert _pids(server) == {pid}
        lines.until("mcptest: 1 server(s) warm (ex); waiting for changes")

        # the server's own source changes: it restarts, and its tests rerun
        server.write_text(server.read_text() + "\n# edited\n", encoding="utf-8")
        third = lines.until("mcptest: cycle 3:")
        assert third.startswith("mcptest: cycle 3: ex restarted; reran 2 test(s)")
        [new] = _pids(server)
        assert new != pid
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            code = proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
    assert code == 0
    assert not _pids(server)


def test_without_the_extra_it_says_what_to_install(tmp_path: Path) -> None:
    """An interpreter without watchfiles (a blocker on the import path stands in for it)."""
    blocker = tmp_path / "blocker"
    blocker.mkdir()
    (blocker / "watchfiles.py").write_text("raise ImportError('not installed')\n")
    (tmp_path / "suite.yml").write_text(SUITE.format(python=json.dumps(sys.executable), b=3,
                                                     sum=5), encoding="utf-8")
    env = {**KEYLESS, "PYTHONPATH": str(blocker) + os.pathsep + KEYLESS.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-m", "mcptest", "run", "suite.yml", "--watch"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "pip install 'mcptest[watch]'" in done.stderr
