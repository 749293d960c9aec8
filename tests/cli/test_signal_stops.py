"""SIGTERM/SIGINT at the two ends of `mcptest run`, outside the run itself: while the command
still imports (~0.2 s before its run could take a signal) and after its last test. Real
processes: their start and end are the point. The signal is sent once stderr shows the moment:
`-X importtime`'s line for the run command's own modules (main() is running), or the last
test's progress line."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_run import STDIO_HEAD

pytestmark = [pytest.mark.slow,  # subprocesses
              pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")]


def greetings(tmp_path: Path, count: int) -> Path:
    """`count` greet tests on the example server over stdio (120: a JSON report well over a
    pipe's 64 KiB)."""
    path = tmp_path / "many.yml"
    path.write_text(STDIO_HEAD + "tools:\n" + "".join(
        f"  - {{name: greets {i}, server: ex, tool: greet, args: {{name: Ada}}}}\n"
        for i in range(count)), encoding="utf-8")
    return path


def start(tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, *flags, "-m", "mcptest", "run", str(greetings(tmp_path, 1)), "-v",
         "--reporter", "json", "--output", str(tmp_path / "run.json"),
         "--reporter", "junit", "--output", str(tmp_path / "junit.xml")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})


def stop_when(proc: subprocess.Popen[str], shows: str, sig: signal.Signals) -> str:
    """Send `sig` once a stderr line shows `shows`; the rest of stderr."""
    assert proc.stderr is not None
    for line in proc.stderr:
        if shows in line:
            break
    else:
        pytest.fail(f"stderr never showed {shows!r}")
    proc.send_signal(sig)
    rest = proc.stderr.read()
    assert proc.wait(timeout=60) == 130, rest[-2000:]
    return rest


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_while_the_command_imports_still_writes_every_report(
        tmp_path: Path, sig: signal.Signals) -> None:
    rest = stop_when(start(tmp_path, "-X", "importtime"), "| mcptest.api.options\n", sig)
    data = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    assert data["summary"]["interrupted"] == sig.name
    [test] = data["tests"]
    assert test["status"] == "skipped"
    assert f"interrupted ({sig.name})" in test["message"]
    assert 'skipped="1"' in (tmp_path / "junit.xml").read_text(encoding="utf-8")
    assert f"mcptest: {sig.name} received: stopping, writing reports" in rest


def test_a_signal_while_the_reports_are_written_exits_130_with_the_reports_whole(
        tmp_path: Path) -> None:
    """The JSON report goes to a pipe this test does not read yet, and is larger than the
    pipe: once its first byte is here the run is over and mcptest is blocked writing it."""
    path = greetings(tmp_path, 120)
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", str(path), "--reporter", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    first = os.read(proc.stdout.fileno(), 1)  # from the pipe itself: communicate() reads on
    proc.send_signal(signal.SIGTERM)
    report, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err.decode()[-2000:]
    data = json.loads(first + report)
    assert len(data["tests"]) == 120
    assert {t["status"] for t in data["tests"]} == {"passed"}
    assert data["summary"]["interrupted"] is None  # the run was whole
    assert "mcptest: SIGTERM received: stopped" in err.decode()


def test_a_signal_while_an_internal_errors_report_is_written_keeps_exit_70(
        tmp_path: Path) -> None:
    """A bug of ours stays the first thing the exit code says."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", str(greetings(tmp_path, 300)),
         "--reporter", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "MCPTEST_INJECT_FAULT": "1"})
    assert proc.stdout is not None
    first = os.read(proc.stdout.fileno(), 1)  # the report is being written: the run is over
    proc.send_signal(signal.SIGTERM)
    report, err = proc.communicate(timeout=60)
    assert proc.returncode == 70, err.decode()[-2000:]
    assert json.loads(first + report)["summary"]["exit_code"] == 70
    assert "received: stopped" not in err.decode()


def test_a_signal_before_a_suite_error_exits_130(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "mcptest", "run",
         str(tmp_path / "missing.yml")],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    rest = stop_when(proc, "| mcptest.api.options\n", signal.SIGTERM)
    assert "missing.yml" in rest  # the suite's error is said
    assert "mcptest: SIGTERM received: stopped" in rest


def test_a_reader_that_stops_reading_ends_the_report_quietly(tmp_path: Path) -> None:
    """`mcptest run … --reporter json | head -c 10`: the run's exit code, no error."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", str(greetings(tmp_path, 120)),
         "--reporter", "json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert os.read(proc.stdout.fileno(), 10)
    proc.stdout.close()  # a report of ~150 KB: the writer is blocked on the full pipe
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0, err[-2000:]
    assert "error" not in err
