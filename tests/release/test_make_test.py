"""`make test`'s runner (`.ci/lint_beside_tests.py`), with a stand-in `make` whose `lint` and
`pytest` targets say what they do: the tests' output first, lint's after it, either failure
failing the run, and an interrupt ending lint's whole group with the tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUNNER = ROOT / ".ci" / "lint_beside_tests.py"


def _make(tmp: Path, lint: str, tests: str) -> Path:
    """A stand-in `make`: `make --no-print-directory lint` runs `lint`, `… pytest` runs `tests`."""
    make = tmp / "make"
    make.write_text(f'#!/bin/sh\ncase "$2" in\n  lint) {lint} ;;\n  pytest) {tests} ;;\nesac\n',
                    encoding="utf-8")
    make.chmod(0o755)
    return make


def _run(make: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(RUNNER), str(make)], capture_output=True,
                          text=True, timeout=60)


def test_the_tests_output_comes_first_and_both_must_pass(tmp_path: Path) -> None:
    done = _run(_make(tmp_path, "echo linted; exit 0", "echo tested; exit 0"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.index("tested") < done.stdout.index("linted")

    lint_fails = _run(_make(tmp_path, "echo 'E501 too long'; exit 2", "echo tested; exit 0"))
    assert lint_fails.returncode == 1
    assert "E501 too long" in lint_fails.stdout
    assert "make test: lint failed (exit 2)" in lint_fails.stderr

    tests_fail = _run(_make(tmp_path, "echo linted; exit 0", "echo '1 failed'; exit 1"))
    assert tests_fail.returncode == 1 and "linted" in tests_fail.stdout


def test_an_interrupt_ends_lint_too(tmp_path: Path) -> None:
    """Ctrl-C reaches the terminal's foreground group (the runner and the tests), not lint's
    own session: the runner ends lint's group. Lint hands its pid to the tests' stand-in through
    a FIFO, so the interrupt comes once both are running."""
    fifo = tmp_path / "lint-pid"
    os.mkfifo(fifo)
    make = _make(tmp_path, f"sh -c 'echo $$ > {fifo}; exec sleep 300'",
                 f"read pid < {fifo}; echo \"lint $pid\"; exec sleep 300")
    runner = subprocess.Popen([sys.executable, str(RUNNER), str(make)], stdout=subprocess.PIPE,
                              text=True, start_new_session=True)
    try:
        assert runner.stdout is not None
        line = runner.stdout.readline()
        assert line.startswith("lint "), line
        lint_pid = int(line.split()[1])
        os.killpg(runner.pid, signal.SIGINT)  # what Ctrl-C does to the foreground group
        assert runner.wait(timeout=30) != 0
    finally:
        if runner.poll() is None:
            os.killpg(runner.pid, signal.SIGKILL)
    # the lint stand-in was the runner's grandchild, reaped by its own parent shell
    try:
        os.kill(lint_pid, 0)
    except ProcessLookupError:
        return
    try:
        state = Path(f"/proc/{lint_pid}/stat").read_text(encoding="utf-8").split()[2]
    except OSError:
        return
    assert state == "Z", f"lint stand-in {lint_pid} still running (state {state})"
