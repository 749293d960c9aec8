"""SIGTERM and SIGINT from the command's first line, for a run that has not started yet.

The run takes signals itself once it runs (`pipeline.py`: the tests that had not finished are
`skipped`, every report is written, exit 130). Before that, importing the command, loading the
suites and planning take ~0.2–0.5 s, in which a CI's cancel killed mcptest with no report. The
latch holds a signal that arrives then; the run takes it at its start and stops at once, as if
the signal had come a moment later. A command that never gets as far as a run lets the latch go
(`release`), and a signal it holds is then delivered again, to the default handler it would
have met.
"""

from __future__ import annotations

import signal
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import FrameType

STOPS = (signal.SIGTERM, signal.SIGINT)


class SignalLatch:
    """Holds the first SIGTERM/SIGINT until a run takes it (`take`) or the latch is let go."""

    def __init__(self) -> None:
        self._held: signal.Signals | None = None
        self._before: dict[signal.Signals, Any] = {}

    def install(self) -> SignalLatch:
        for sig in STOPS:
            self._before[sig] = signal.signal(sig, self._hold)
        return self

    def _hold(self, signum: int, _frame: FrameType | None) -> None:
        if self._held is None:
            self._held = signal.Signals(signum)

    def take(self) -> str | None:
        """The held signal's name (`SIGTERM`), once; the run that takes it stops."""
        held, self._held = self._held, None
        return held.name if held is not None else None

    def release(self) -> None:
        """Restore the handlers from before `install`, then deliver a signal still held."""
        for sig, before in self._before.items():
            signal.signal(sig, before)
        self._before.clear()
        held, self._held = self._held, None
        if held is not None:
            signal.raise_signal(held)
