"""Live progress (docs/reports.md, "Live progress"): one line per finished test without a
terminal, one redrawn line on a terminal (a real pseudo-terminal here), nothing with --quiet."""

from __future__ import annotations

import io
import os
import pty
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.cli_run import HEAD

from mcptest.cli.progress import Progress
from mcptest.report.models import TestResult as Result

N = 20


def _suite(tmp_path: Path) -> Path:
    tests = "".join(f"""
  - name: add {i}
    server: example
    tool: add
    args: {{ a: {i}, b: 1 }}
    expect:
      - target: result.structuredContent.result
        matcher: {{ exact: {i + 1} }}
""" for i in range(N))
    path = tmp_path / "twenty.yml"
    # the test process's shared example server: the progress lines are the point
    path.write_text(HEAD.replace("\n  ex:\n", "\n  example:\n") + f"tools:{tests}",
                    encoding="utf-8")
    return path


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "CI", "TERM")}
    return {**env, "NO_COLOR": "1", **extra}


@pytest.mark.slow
def test_without_a_terminal_one_line_per_test_before_the_summary(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mcptest", "run", str(_suite(tmp_path))],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=_env(), timeout=120, check=False)
    assert done.returncode == 0, done.stdout
    lines = done.stdout.splitlines()
    summary = next(i for i, line in enumerate(lines) if line.startswith(f"{N} passed of {N}"))
    progress = [(i, m) for i, line in enumerate(lines)
                if (m := re.fullmatch(r"mcptest: \[\s*(\d+)/20\] passed\s+add \d+ \(\d+ ms\)",
                                      line))]
    assert len(progress) == N
    assert [int(m.group(1)) for _, m in progress] == list(range(1, N + 1))
    assert all(i < summary for i, _ in progress)
    assert "\r" not in done.stdout  # no redrawing in a log


@pytest.mark.slow
def test_on_a_terminal_one_line_is_redrawn(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "mcptest", "run", str(_suite(tmp_path))],
                            stdout=subprocess.PIPE, stderr=slave, env=_env(TERM="xterm"))
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    out, _ = proc.communicate(timeout=60)
    assert proc.returncode == 0
    tty = b"".join(chunks).decode()
    frames = tty.split("\r\x1b[2K")
    counts = [int(m.group(1)) for f in frames if (m := re.match(r"mcptest: (\d+)/20 done", f))]
    distinct = [c for i, c in enumerate(counts) if c and (i == 0 or c != counts[i - 1])]
    assert distinct == list(range(1, N + 1))  # redrawn as each test finished, in order
    assert counts[-1] == N
    assert re.match(r"mcptest: 20/20 done · 0 failed · \d+\.\d s\r?\n$", frames[-1])
    assert "[1/20]" not in tty  # not the per-test lines
    assert f"{N} passed of {N}".encode() in out


@pytest.mark.slow
def test_quiet_prints_only_the_report(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "mcptest", "run", "--quiet",
                           str(_suite(tmp_path))], capture_output=True, text=True,
                          env=_env(), timeout=120, check=False)
    assert done.returncode == 0
    assert done.stderr == ""
    assert f"{N} passed of {N}" in done.stdout


def _result(name: str, status: str, cost: float = 0.0) -> Result:
    return Result.model_validate({
        "id": f"s.yml::tool::{name}", "name": name, "kind": "tool", "suite_file": "s.yml",
        "status": status, "duration_ms": 5.0, "cost_usd": cost,
        "location": {"file": "s.yml", "line": 1, "column": 1}})


def test_status_line_counts_failures_and_spend() -> None:
    ticks = iter([0.0, 1.5, 3.3])
    stream = io.StringIO()
    progress = Progress(3, "line", stream=stream, judged=True, cap=0.5,
                        clock=lambda: next(ticks))
    progress(_result("a", "passed", cost=0.0123))
    progress(_result("b\nmultiline", "failed", cost=0.001))
    assert stream.getvalue().split("\r\x1b[2K")[1:] == [
        "mcptest: 1/3 done · 0 failed · $0.0123 of $0.50 · 1.5 s · a",
        "mcptest: 2/3 done · 1 failed · $0.0133 of $0.50 · 3.3 s · b multiline",
    ]


def test_run_lines_do_not_land_inside_the_redrawn_line() -> None:
    stream = io.StringIO()
    progress = Progress(2, "line", stream=stream, clock=lambda: 0.0, tick_s=3600)
    progress.log("mcptest: header")
    progress(_result("a", "passed"))
    progress.log("error: s.yml:3:5: servers.x.command: command not found: x")
    progress.close()
    assert stream.getvalue() == (
        "mcptest: header\n"
        "\r\x1b[2Kmcptest: 1/2 done · 0 failed · 0.0 s · a"
        "\r\x1b[2Kerror: s.yml:3:5: servers.x.command: command not found: x\n"
        "\r\x1b[2Kmcptest: 1/2 done · 0 failed · 0.0 s · a"
        "\r\x1b[2Kmcptest: 1/2 done · 0 failed · 0.0 s\n")


def test_quiet_keeps_errors_only() -> None:
    stream = io.StringIO()
    progress = Progress(1, "quiet", stream=stream)
    progress.log("mcptest: 1 of 1 tests from 1 file(s), 1 server(s)")
    progress(_result("a", "failed"))
    progress.log("error: s.yml:3:5: servers.x.url: cannot connect")
    progress.close()
    assert stream.getvalue() == "error: s.yml:3:5: servers.x.url: cannot connect\n"


class _Signalling(io.StringIO):
    """A stream that tells when a redraw without any finished test arrived."""

    def __init__(self) -> None:
        super().__init__()
        self.ticked = threading.Event()

    def write(self, text: str) -> int:
        if "\r\x1b[2Kmcptest: 0/3 done" in text:
            self.ticked.set()
        return super().write(text)


def test_the_terminal_line_moves_while_no_test_finishes() -> None:
    stream = _Signalling()
    progress = Progress(3, "line", stream=stream, tick_s=0.01, clock=lambda: 0.0)
    progress.log("header")
    assert stream.ticked.wait(30), "no redraw without a finished test"
    progress.close()
    assert stream.getvalue().endswith("\r\x1b[2Kmcptest: 0/3 done · 0 failed · 0.0 s\n")
