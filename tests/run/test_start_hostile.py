"""`start:` against hostile neighbours (issue 25): a port someone else already listens on, a
squatter that binds the port after the start, a start command that leaves a setsid() daemon
behind, and mcptest itself killed with SIGKILL. Each ends with a clear error or a clean stop, no
traceback, reports written, and nothing sent to a process mcptest did not start
(docs/suites.md, "Servers mcptest starts")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from support.cli_run import run_json
from support.servers import EXAMPLE_SERVER, free_port

pytestmark = pytest.mark.slow

HOSTILE = Path(__file__).resolve().parents[1] / "data" / "hostile_servers" / "start_hostile.py"
TOKEN = "tok-squatter-bait-81c2e9"


def _suite(tmp_path: Path, port: int, command: list[str], *, timeout: str = "30s",
           slow: bool = False) -> Path:
    path = tmp_path / "started.yml"
    extra = ("  - {name: slow call, server: web, tool: slow, args: {seconds: 60}}\n"
             if slow else "")
    path.write_text(f"""servers:
  web:
    url: "http://127.0.0.1:{port}/mcp"
    auth: {{ bearer_token_env: HOSTILE_TOKEN }}
    start:
      command: {json.dumps(command)}
      timeout: {timeout}
tools:
  - name: greet
    server: web
    tool: greet
    args: {{ name: Ada }}
    expect:
      - target: result.content[0].text
        matcher: {{ exact: "Hello, Ada!" }}
{extra}""", encoding="utf-8")
    return path


def _server(port: int) -> list[str]:
    return [sys.executable, str(EXAMPLE_SERVER), "--http", f"--port={port}",
            f"--token={TOKEN}"]


@contextmanager
def _hostile(*args: str | Path) -> Iterator[subprocess.Popen[str]]:
    proc = subprocess.Popen([sys.executable, str(HOSTILE), *map(str, args)],
                            stdout=subprocess.PIPE, text=True)
    try:
        yield proc
    finally:
        proc.kill()
        proc.wait(timeout=10)
        assert proc.stdout is not None
        proc.stdout.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr + r.stdout, r.stderr


def test_a_port_already_listened_on_is_refused_before_anything_starts(tmp_path: Path) -> None:
    port, log, started = free_port(), tmp_path / "squatter.log", tmp_path / "started"
    with _hostile("squatter", port, log) as squatter:
        assert squatter.stdout is not None and squatter.stdout.readline() == "listening\n"
        command = ["sh", "-c", f'touch {started}; exec "$0" "$@"', *_server(port)]
        r, report = run_json(_suite(tmp_path, port, command), env={"HOSTILE_TOKEN": TOKEN})
    assert r.returncode == 3, r.stderr
    _no_traceback(r)
    assert (f"port {port} (127.0.0.1:{port}, from url) is already listened on by "
            f"pid {squatter.pid}") in r.stderr
    assert not started.exists()  # the start command never ran
    assert not log.exists() or log.read_text() == ""  # no probe, no token
    assert [t["status"] for t in report["tests"]] == ["error"]
    assert f"port {port}" in report["tests"][0]["message"]


def test_a_squatter_after_the_start_gets_no_request(tmp_path: Path) -> None:
    """The started process never listens; a process outside its tree takes the port once it
    started. mcptest waits for its own listener, sends nothing, and says who holds the port."""
    port, log, started = free_port(), tmp_path / "squatter.log", tmp_path / "started"
    with _hostile("squat-after", started, port, log) as squatter:
        command = ["sh", "-c", f"touch {started}; exec sleep 120"]
        r, report = run_json(_suite(tmp_path, port, command, timeout="5s"),
                             env={"HOSTILE_TOKEN": TOKEN})
    assert r.returncode == 3, r.stderr
    _no_traceback(r)
    assert "not ready within 5s (start.timeout" in r.stderr
    assert (f"127.0.0.1:{port} is also listened on by pid {squatter.pid}") in r.stderr
    assert not log.exists() or log.read_text() == ""
    assert report["tests"][0]["status"] == "error"


def test_a_setsid_daemon_of_the_start_command_is_stopped(tmp_path: Path) -> None:
    """The start command forks a daemon into a session of its own that ignores SIGTERM, then
    runs the server: the run passes, and the daemon is gone at the end (SIGKILL after 5 s)."""
    port, pidfile = free_port(), tmp_path / "daemon.pid"
    command = [sys.executable, str(HOSTILE), "daemonize", str(pidfile), *_server(port)]
    r, report = run_json(_suite(tmp_path, port, command), env={"HOSTILE_TOKEN": TOKEN})
    assert r.returncode == 0, r.stderr
    assert [t["status"] for t in report["tests"]] == ["passed"]
    daemon = int(pidfile.read_text())
    assert os.getsid(0) != daemon  # it really left for a session of its own (it leads it)
    assert not _alive(daemon)


def test_mcptest_killed_leaves_no_started_process(tmp_path: Path) -> None:
    """SIGKILL gives mcptest no chance to stop anything: the reaper's parent-death signal
    stops the server and the daemon instead."""
    port, pidfile = free_port(), tmp_path / "daemon.pid"
    command = [sys.executable, str(HOSTILE), "daemonize", str(pidfile), *_server(port)]
    suite = _suite(tmp_path, port, command, slow=True)
    proc = subprocess.Popen([sys.executable, "-m", "mcptest", "run", str(suite), "--verbose"],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                            env={**os.environ, "HOSTILE_TOKEN": TOKEN, "NO_COLOR": "1"})
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # the quick test finishes while the slow call is in flight
        seen.append(line)
        if "greet" in line:
            break
    daemon = int(pidfile.read_text())
    assert _alive(daemon), seen
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stderr.close()
    deadline = time.monotonic() + 20
    while (_alive(daemon) or _listening(port)) and time.monotonic() < deadline:
        time.sleep(0.1)  # the reaper's grace period runs in another process: polled
    assert not _alive(daemon)
    assert not _listening(port)


def _listening(port: int) -> bool:
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and int(fields[1].rpartition(":")[2], 16) == port:
                return True
    return False
