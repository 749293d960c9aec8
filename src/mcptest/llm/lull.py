"""A wave's gradings after its answers: the judge answers of a full pool wait for a lull.

With every slot of the pool taken, a wave's answers come in together (their requests left
together), and each answer's turnaround to the next request on its slot adds to the run's
wall. An answer graded as it came (~0.3 ms of CPU) left the answers behind it unread, so the
gradings wait until no answer has come for `quiet_s` (never more than `max_s`). One waiter
times the lull; the others wait on it, and are let go one per turn of the event loop, so an
answer that still comes is read between two gradings, not after all of them
(docs/architecture.md, "Costs").
"""

from __future__ import annotations

import time
from collections import deque

import anyio
import anyio.lowlevel

QUIET_S = 0.002
"""A wave's gradings wait for this long without a new answer…"""
MAX_S = 0.02
"""… and none longer than this after the first of them began to wait (then every waiter left
goes at once: their gradings run one after another, as any CPU work queued on the loop)."""


class Lull:
    """One per pool. `answered` when an answer comes; `wait` before grading one."""

    def __init__(self, quiet_s: float = QUIET_S, max_s: float = MAX_S) -> None:
        self.quiet_s, self.max_s = quiet_s, max_s
        self._last = 0.0
        self._turns: deque[anyio.Event] = deque()
        """The waiters the timing one lets go, first come first."""
        self._timer: object | None = None
        """The event loop of the waiter that times the lull (None: nobody does)."""

    def answered(self) -> None:
        self._last = time.monotonic()

    async def wait(self) -> None:
        """Return once no answer has come for `quiet_s`, in turn with the other waiters.
        Shielded: what waits is a reply already settled and paid for, so a cancellation takes
        effect at the caller's next await rather than throwing it away."""
        loop = anyio.lowlevel.current_token()
        with anyio.CancelScope(shield=True):
            if self._timer is not None:
                if self._timer == loop:  # another loop's run (one client, two loops) never waits
                    turn = anyio.Event()
                    self._turns.append(turn)
                    await turn.wait()
                return
            self._timer = loop
            try:
                end = time.monotonic() + self.max_s
                while True:
                    now = time.monotonic()
                    wait = min(self._last + self.quiet_s, end) - now
                    if wait > 0:
                        await anyio.sleep(wait)
                    elif now >= end:  # the bound: every waiter goes (`finally`), none is held
                        return        # a turn per grading queued ahead of it beyond `max_s`
                    elif self._turns:  # one grading per turn: an answer that comes is read
                        self._turns.popleft().set()
                        await anyio.lowlevel.checkpoint()
                    else:
                        return  # the timing waiter's own grading is the wave's last
            finally:
                self._timer = None
                while self._turns:
                    self._turns.popleft().set()
