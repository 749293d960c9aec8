"""SIGTERM and SIGINT, held by one handler for as long as a command or a run wants them.

A run stops on either (`pipeline.py`: the tests that had not finished are `skipped`, every
report is written, exit 130). The CLI installs the latch on `mcptest run`/`eval`'s first line,
so a signal while the command still imports, loads and plans (~0.2–0.5 s, when a CI's cancel
used to kill it with no report) is held, and the run, which takes it (`take`), stops as it
starts. While the run works it waits on the latch (`wait`), and afterwards, while the reports
are written, the latch holds a signal again: the command then ends with 130 (`release`). A
SIGINT after any earlier signal is not held: the handlers from before come back and it meets
them, so a second Ctrl-C stops mcptest at once (no report). A SIGTERM is always held: a
cancelled CI job sends SIGINT, then SIGTERM ~7.5 s later, and the reports must still come out.
A signal the process ignored (`SIG_IGN`, a background job's SIGINT) stays ignored.
"""

from __future__ import annotations

import contextlib
import signal
import socket
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import FrameType

STOPS = (signal.SIGTERM, signal.SIGINT)
_RECHECK_S = 0.5
"""How often `wait` looks at the latch itself, should another part of the process have taken
the one wakeup-fd slot (`signal.set_wakeup_fd`) from it."""


def block_stops() -> set[signal.Signals | int]:
    """Block SIGTERM/SIGINT (they wait, pending); the mask from before (`restore_mask`). A
    process started meanwhile inherits the mask: the Action starts its CLI so, and the CLI's
    `main()` unblocks them once its latch holds them, so a cancel in the CLI's first ~40 ms
    (the interpreter's start) is not a kill."""
    if not hasattr(signal, "pthread_sigmask"):
        return set()
    return signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)


def unblock_stops() -> None:
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)


def restore_mask(mask: set[signal.Signals | int]) -> None:
    """Put back the signal mask `block_stops` returned."""
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_SETMASK, mask)


class SignalLatch:
    """Holds a SIGTERM/SIGINT until a run takes it or waits for it (main thread only)."""

    def __init__(self) -> None:
        self._held: signal.Signals | None = None
        self._seen = 0
        self._before: dict[signal.Signals, Any] = {}
        self._wakeup_before: int | None = None
        self._wake, self._waker = socket.socketpair()
        for end in (self._wake, self._waker):
            end.setblocking(False)

    def install(self) -> SignalLatch:
        for sig in STOPS:
            if signal.getsignal(sig) is not signal.SIG_IGN:
                self._before[sig] = signal.signal(sig, self._hold)
        # the C handler writes here at once, whichever thread the signal lands on, so a loop
        # asleep in its selector wakes for it (the Python handler runs in the main thread only)
        self._wakeup_before = signal.set_wakeup_fd(self._waker.fileno(),
                                                   warn_on_full_buffer=False)
        return self

    def _hold(self, signum: int, _frame: FrameType | None) -> None:
        self._seen += 1
        if signum == signal.SIGINT and self._seen > 1:  # Ctrl-C again: no more waiting
            self._restore()
            signal.raise_signal(signum)
            return
        if self._held is None:
            self._held = signal.Signals(signum)

    def take(self) -> str | None:
        """The held signal's name (`SIGTERM`), once."""
        held, self._held = self._held, None
        return held.name if held is not None else None

    async def wait(self) -> str:
        """The next signal's name, once it has come (at once if one is held)."""
        import anyio  # `mcptest --version` imports this module, not the event loop's library

        while (held := self.take()) is None:
            with anyio.move_on_after(_RECHECK_S):
                await anyio.wait_readable(self._wake)
            with contextlib.suppress(BlockingIOError):
                self._wake.recv(64)
        return held

    def release(self) -> str | None:
        """Put back the handlers from before `install`; the name of a signal still held."""
        self._restore()
        for end in (self._wake, self._waker):
            end.close()
        return self.take()

    def _restore(self) -> None:
        for sig, before in self._before.items():
            signal.signal(sig, before)
        self._before.clear()
        if self._wakeup_before is not None:
            current = signal.set_wakeup_fd(self._wakeup_before)
            if current != self._waker.fileno():  # another part set its own since: it stays
                signal.set_wakeup_fd(current)
            self._wakeup_before = None
