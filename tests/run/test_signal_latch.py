"""The latch that holds SIGTERM/SIGINT for `mcptest run`/`eval` (run/signal_latch.py), and a run
that takes its signals from it (pipeline.py `_run`). In the test's process: every test puts a
recording handler in place first, so a signal the latch failed to hold is seen, not fatal."""

from __future__ import annotations

import json
import signal
import sys
from collections.abc import Iterator
from pathlib import Path

import anyio
import pytest

from mcptest.pipeline import RunOptions, run_plan
from mcptest.plan import build_plan
from mcptest.run.signal_latch import SignalLatch
from mcptest.suite.load import load_suites

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


def test_a_second_signal_while_one_is_held_meets_the_handler_from_before(
        seen: list[int]) -> None:
    latch = SignalLatch().install()
    try:
        signal.raise_signal(signal.SIGTERM)
        signal.raise_signal(signal.SIGTERM)
        assert seen == [signal.SIGTERM]  # the second: a second Ctrl-C stops at once
    finally:
        latch.release()


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


def test_wait_returns_a_signal_that_comes_while_it_waits(seen: list[int]) -> None:
    latch = SignalLatch().install()

    async def main() -> str:
        got: list[str] = []
        with anyio.fail_after(10):
            async with anyio.create_task_group() as tg:

                async def waiter() -> None:
                    got.append(await latch.wait())

                tg.start_soon(waiter)
                await anyio.wait_all_tasks_blocked()  # the waiter sleeps in the selector
                signal.raise_signal(signal.SIGTERM)
        return got[0]

    try:
        assert anyio.run(main) == "SIGTERM"
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
        report = run_plan(plan, RunOptions(signals=latch)).report
        assert signal.getsignal(signal.SIGTERM) == latch._hold  # still the latch's, after
    finally:
        assert latch.release() is None
    assert report.summary.interrupted == "SIGTERM"
    assert [(t.name, t.status) for t in report.tests] == [("one", "skipped"), ("two", "skipped")]
    assert all("interrupted (SIGTERM)" in (t.message or "") for t in report.tests)
    assert not marker.exists()
    assert seen == []


def test_a_run_without_a_latch_of_its_caller_holds_signals_only_while_it_runs(
        tmp_path: Path, seen: list[int]) -> None:
    path = tmp_path / "suite.yml"
    path.write_text("tools: []\n", encoding="utf-8")
    before = signal.getsignal(signal.SIGTERM)
    run_plan(build_plan(load_suites([path], env={})), RunOptions())
    assert signal.getsignal(signal.SIGTERM) is before
