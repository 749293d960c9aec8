"""The latch that holds SIGTERM/SIGINT for `mcptest run`/`eval` (run/signal_latch.py), and a run
that takes its signals from it (pipeline.py `_run`). In the test's process: every test puts a
recording handler in place first, so a signal the latch failed to hold is seen, not fatal."""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import pytest
from support.cli_run import STDIO_HEAD

from mcptest.pipeline import RunOptions, run_plan
from mcptest.plan import build_plan
from mcptest.run.signal_latch import SignalLatch
from mcptest.suite.load import load_suites

if TYPE_CHECKING:
    from mcptest.report.models import TestResult

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")


@pytest.fixture
def seen() -> Iterator[list[int]]:
    """SIGTERM's handler while the test runs: one that records what reaches it."""
    got: list[int] = []
    previous = signal.signal(signal.SIGTERM, lambda signum, _frame: got.append(signum))
    try:
        yield got
    finally:
        signal.signal(signal.SIGTERM, previous)


def test_a_held_signal_is_taken_once_and_never_reaches_the_handler_before(
        seen: list[int]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    latch = SignalLatch().install()
    signal.raise_signal(signal.SIGTERM)
    assert latch.take() == "SIGTERM"
    assert latch.take() is None
    assert latch.release() is None
    assert seen == []
    assert signal.getsignal(signal.SIGTERM) is before


def test_release_names_a_signal_still_held_and_puts_the_handlers_back(seen: list[int]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    latch = SignalLatch().install()
    signal.raise_signal(signal.SIGTERM)
    assert latch.release() == "SIGTERM"
    assert seen == []
    assert signal.getsignal(signal.SIGTERM) is before


def test_a_second_ctrl_c_meets_the_handler_from_before(seen: list[int]) -> None:
    interrupts: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, _frame: interrupts.append(signum))
    latch = SignalLatch().install()
    try:
        signal.raise_signal(signal.SIGINT)
        assert latch.take() == "SIGINT"  # a run took it, and is stopping
        signal.raise_signal(signal.SIGINT)
        assert interrupts == [signal.SIGINT]  # the second: mcptest stops at once
        assert signal.getsignal(signal.SIGINT) is not latch._hold
    finally:
        latch.release()
        signal.signal(signal.SIGINT, previous)


def test_sigterm_after_sigint_is_held_as_a_cancelled_ci_job_sends_them(
        seen: list[int]) -> None:
    latch = SignalLatch().install()
    try:
        signal.raise_signal(signal.SIGINT)
        signal.raise_signal(signal.SIGTERM)
        assert seen == []  # held: the reports still come out
        assert latch.take() == "SIGINT"
    finally:
        assert latch.release() is None


def test_an_ignored_signal_stays_ignored(seen: list[int]) -> None:
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)  # a background job's SIGINT
    try:
        latch = SignalLatch().install()
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        signal.raise_signal(signal.SIGINT)
        assert latch.release() is None
        assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN
    finally:
        signal.signal(signal.SIGINT, previous)


def _waited(latch: SignalLatch, meanwhile: Callable[[], None]) -> str:
    """What `latch.wait()` returns in an event loop when, once it sleeps in the selector,
    `meanwhile` runs there."""
    async def main() -> str:
        got: list[str] = []
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:

                async def waiter() -> None:
                    got.append(await latch.wait())

                tg.start_soon(waiter)
                await anyio.wait_all_tasks_blocked()
                meanwhile()
        return got[0]

    return anyio.run(main)


def test_wait_returns_a_signal_that_comes_while_it_waits(seen: list[int]) -> None:
    latch = SignalLatch().install()
    try:
        assert _waited(latch, lambda: signal.raise_signal(signal.SIGTERM)) == "SIGTERM"
    finally:
        assert latch.release() is None
    assert seen == []


def test_a_run_that_finds_a_held_signal_starts_nothing_and_writes_every_row(
        tmp_path: Path, seen: list[int]) -> None:
    marker = tmp_path / "started"
    server = tmp_path / "server.py"  # would leave a file behind if it ever started
    server.write_text(f"open({str(marker)!r}, 'w').close()\n", encoding="utf-8")
    path = tmp_path / "suite.yml"
    path.write_text(f"""servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(server))}]
tools:
  - {{name: one, server: ex, tool: greet}}
  - {{name: two, server: ex, tool: greet}}
""", encoding="utf-8")
    plan = build_plan(load_suites([path], env={"PATH": "/usr/bin:/bin"}))
    latch = SignalLatch().install()
    try:
        signal.raise_signal(signal.SIGTERM)
        report = run_plan(plan, RunOptions(handle_signals=True, signals=latch)).report
        assert signal.getsignal(signal.SIGTERM) == latch._hold  # still the latch's, after
    finally:
        assert latch.release() is None
    assert report.summary.interrupted == "SIGTERM"
    assert [(t.name, t.status) for t in report.tests] == [("one", "skipped"), ("two", "skipped")]
    assert all("interrupted (SIGTERM)" in (t.message or "") for t in report.tests)
    assert not marker.exists()
    assert seen == []


def _two_tests(tmp_path: Path, second: str) -> Path:
    path = tmp_path / "suite.yml"
    path.write_text(STDIO_HEAD + f"""tools:
  - {{name: greets Ada, server: ex, tool: greet, args: {{name: Ada}}}}
  - {{name: second, server: ex, {second}}}
""", encoding="utf-8")
    return path


def _signal_after_first(result: TestResult) -> None:
    """The run's progress callback (its event loop, the main thread): SIGTERM to this process
    once the first test is done."""
    if result.name == "greets Ada":
        os.kill(os.getpid(), signal.SIGTERM)


def test_a_run_with_a_latch_of_its_own_holds_signals_while_it_runs_and_puts_them_back(
        tmp_path: Path, seen: list[int]) -> None:
    path = _two_tests(tmp_path, "tool: slow, args: {seconds: 60}")
    before = signal.getsignal(signal.SIGTERM)
    report = run_plan(build_plan(load_suites([path], env=dict(os.environ))),
                      RunOptions(handle_signals=True, progress=_signal_after_first)).report
    assert seen == []  # the run's latch had it
    assert report.summary.interrupted == "SIGTERM"
    assert [(t.name, t.status) for t in report.tests] == [("greets Ada", "passed"),
                                                           ("second", "skipped")]
    assert signal.getsignal(signal.SIGTERM) is before  # put back, after an interrupted run


def test_a_library_run_leaves_the_signals_to_its_caller(tmp_path: Path, seen: list[int]) -> None:
    path = _two_tests(tmp_path, "tool: greet, args: {name: Bo}")
    report = run_plan(build_plan(load_suites([path], env=dict(os.environ))),
                      RunOptions(progress=_signal_after_first)).report
    assert seen == [signal.SIGTERM]  # the caller's handler got it; the run went on
    assert report.summary.interrupted is None
    assert [t.status for t in report.tests] == ["passed", "passed"]


def test_another_wakeup_fd_set_meanwhile_stays_and_wait_still_sees_the_signal(
        seen: list[int]) -> None:
    other, other_peer = socket.socketpair()
    other.setblocking(False)
    latch = SignalLatch().install()

    def another_part_takes_the_slot_then_a_signal_comes() -> None:
        signal.set_wakeup_fd(other.fileno())
        signal.raise_signal(signal.SIGTERM)  # its byte goes there, not to the latch

    try:  # the latch's own recheck finds it
        assert _waited(latch, another_part_takes_the_slot_then_a_signal_comes) == "SIGTERM"
    finally:
        latch.release()
        assert signal.set_wakeup_fd(-1) == other.fileno()  # left as the other part set it
        other.close()
        other_peer.close()
    assert seen == []


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_run_leaves_its_callers_signal_mask_as_it_was(tmp_path: Path,
                                                         seen: list[int]) -> None:
    """Only the console script unblocks what the Action blocked; a caller that blocks SIGTERM
    (to `sigwait` for it) keeps it blocked through a run."""
    path = tmp_path / "suite.yml"
    path.write_text("tools: []\n", encoding="utf-8")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    try:
        run_plan(build_plan(load_suites([path], env={})), RunOptions(handle_signals=True))
        assert signal.SIGTERM in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)
