"""`start:` on a remote server: mcptest starts the example HTTP server, waits until it is ready,
runs the tests against `url`, keeps its output for failing tests, and stops it and its children
at the end, on failure and on SIGTERM (docs/suites.md, "Servers mcptest starts")."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from support.servers import EXAMPLE_SERVER, free_port

from mcptest.cli.main import main

pytestmark = pytest.mark.slow


def _marker_processes(marker: str) -> list[int]:
    """pids whose command line contains `marker` (this test's unique port argument)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if marker in cmdline and state != "Z":
            found.append(int(entry.name))
    return found


def _suite(tmp_path: Path, port: int, *, start: str, expected: str = "Hello, Ada!") -> Path:
    path = tmp_path / "started.yml"
    path.write_text(f"""
servers:
  web:
    url: "http://127.0.0.1:{port}/mcp"
    start:
{start}
tools:
  - name: greet over the started server
    server: web
    tool: greet
    args: {{ name: Ada }}
    expect:
      - target: result.content[0].text
        matcher: {{ exact: "{expected}" }}
  - name: add over the started server
    server: web
    tool: add
    args: {{ a: 1, b: 2 }}
    expect:
      - target: result.structuredContent.result
        matcher: {{ exact: 3 }}
""", encoding="utf-8")
    return path


def _direct(port: int, ready: str = "") -> str:
    return (f'      command: ["{sys.executable}", "{EXAMPLE_SERVER}", "--http", "--port={port}"]\n'
            + ready)


def _run(suite: Path, tmp_path: Path) -> tuple[int, dict]:
    out = tmp_path / "run.json"
    code = main(["run", str(suite), "--reporter", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


@pytest.mark.parametrize("ready", ["", "      ready: {{ tcp: \"127.0.0.1:{port}\" }}\n",
                                   "      ready: {{ url: \"http://127.0.0.1:{port}/mcp\" }}\n"],
                         ids=["default-url", "tcp", "url"])
def test_started_server_runs_the_tests_and_is_stopped(tmp_path: Path, ready: str) -> None:
    port = free_port()
    code, report = _run(_suite(tmp_path, port, start=_direct(port, ready.format(port=port))),
                        tmp_path)
    assert code == 0, report
    assert [t["status"] for t in report["tests"]] == ["passed", "passed"]
    assert _marker_processes(f"--port={port}") == []


def test_the_started_servers_output_is_on_its_row_not_a_tests(tmp_path: Path) -> None:
    """What the process printed while starting is the server's (its row's tail), not the
    failing test's: a test carries only what was written during its request."""
    port = free_port()
    start = (f'      command: ["sh", "-c", "echo booting-{port}; exec \\"$0\\" \\"$@\\"",'
             f' "{sys.executable}", "{EXAMPLE_SERVER}", "--http", "--port={port}"]\n')
    code, report = _run(_suite(tmp_path, port, start=start, expected="wrong"), tmp_path)
    assert code == 1
    failed, passed = report["tests"]
    assert failed["status"] == "failed" and passed["status"] == "passed"
    assert f"booting-{port}" not in (failed.get("server_stderr") or "")
    assert f"booting-{port}" in report["servers"][0]["stderr_tail"]
    assert _marker_processes(f"--port={port}") == []


def test_log_regex_waits_for_the_line(tmp_path: Path) -> None:
    """The server prints a line once it listens (a wrapper polls the port, then says so)."""
    port = free_port()
    wrapper = tmp_path / "announce.py"
    wrapper.write_text(
        "import socket, subprocess, sys, time\n"
        "p = subprocess.Popen(sys.argv[1:])\n"
        "while True:\n"
        "    try:\n"
        f"        socket.create_connection(('127.0.0.1', {port}), timeout=0.2).close(); break\n"
        "    except OSError:\n"
        "        time.sleep(0.05)\n"
        "print('listening now', flush=True)\n"
        "sys.exit(p.wait())\n", encoding="utf-8")
    start = (f'      command: ["{sys.executable}", "{wrapper}", "{sys.executable}",'
             f' "{EXAMPLE_SERVER}", "--http", "--port={port}"]\n'
             '      ready: { log_regex: "^listening now$" }\n')
    code, report = _run(_suite(tmp_path, port, start=start), tmp_path)
    assert code == 0, report
    assert _marker_processes(f"--port={port}") == []


def test_process_that_exits_before_ready_fails_the_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    start = '      command: ["sh", "-c", "echo cannot-bind >&2; exit 7"]\n'
    code, report = _run(_suite(tmp_path, port, start=start), tmp_path)
    assert code == 3
    err = capsys.readouterr().err
    assert "exited with code 7 before it was ready" in err and "cannot-bind" in err
    assert f"{tmp_path / 'started.yml'}:4:" in err  # positioned at the server's url
    assert {t["status"] for t in report["tests"]} == {"error"}


def test_sigterm_mid_run_leaves_no_server_process(tmp_path: Path) -> None:
    """The started shell forks the server as a child: the whole process group must go."""
    port = free_port()
    marker = f"--port={port}"
    start = (f'      command: ["sh", "-c", "\\"$0\\" \\"$@\\" & wait", "{sys.executable}",'
             f' "{EXAMPLE_SERVER}", "--http", "{marker}"]\n')
    suite = _suite(tmp_path, port, start=start)
    text = suite.read_text(encoding="utf-8") + """
  - name: slow call that SIGTERM interrupts
    server: web
    tool: slow
    args: { seconds: 60 }
"""
    suite.write_text(text, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "mcptest", "run", str(suite), "--verbose"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "NO_COLOR": "1"})
    assert proc.stderr is not None
    seen = []
    for line in proc.stderr:  # the two quick tests finish while the slow call is in flight
        seen.append(line)
        if "add over the started server" in line:
            break
    # the reaper (run/reaper.py, its argv carries the command), the shell and the server
    assert len(_marker_processes(marker)) == 3, seen
    proc.send_signal(signal.SIGTERM)
    _out, err = proc.communicate(timeout=60)
    assert "SIGTERM received" in "".join(seen) + err
    assert proc.returncode != 0
    deadline = time.monotonic() + 10
    while _marker_processes(marker) and time.monotonic() < deadline:
        time.sleep(0.05)  # reaping by init is not ours to await
    assert _marker_processes(marker) == []


def test_start_load_errors_are_positioned(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = tmp_path / "bad.yml"
    suite.write_text("""servers:
  web:
    url: "http://127.0.0.1:1/mcp"
    start:
      command: [python, s.py]
      ready: { tcp: "127.0.0.1:1", log_regex: "x" }
tools: []
""", encoding="utf-8")
    assert main(["validate", str(suite)]) == 2
    err = capsys.readouterr().err
    assert f"{suite}:6:" in err and "exactly one of url, log_regex or tcp" in err
    suite.write_text(suite.read_text().replace('{ tcp: "127.0.0.1:1", log_regex: "x" }',
                                               '{ log_regex: "(" }'), encoding="utf-8")
    assert main(["validate", str(suite)]) == 2
    err = capsys.readouterr().err
    assert f"{suite}:6:" in err and "log_regex" in err and "regex does not compile" in err
