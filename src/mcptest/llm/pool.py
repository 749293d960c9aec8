"""One bounded pool for every judge request of a run, plus a limit per model.

A suite with 500 LLM assertions must not open 500 connections, and one slow provider must not
hog every slot: a request first takes a slot of its model, then one of the shared pool.

A slot given up while others wait goes to the first of them, which sends its request when it
next runs. What follows an answer (its grading) lets such requests go first (`after_answer`):
with a full pool, every answer's turnaround to the next request adds to the run's wall, and a
wave's answers come in together (docs/architecture.md, "Costs").
"""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel

from mcptest.llm.lull import MAX_S, QUIET_S, Lull

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

HANDOVER_TURNS = 8
"""At most this many turns of the loop an answer's grading yields to requests handed a slot."""


@dataclass
class SlotUse:
    """One use of a slot; `handed`: given up to a task that was waiting for it."""

    handed: bool = False


class JudgePool:
    def __init__(self, concurrency: int = 8, per_model: int | None = None, *,
                 lull_s: float = QUIET_S, lull_max_s: float = MAX_S) -> None:
        if concurrency < 1 or (per_model is not None and per_model < 1):
            raise ValueError("concurrency limits must be at least 1")
        self.concurrency = concurrency
        self.per_model = per_model
        self._lock = threading.Lock()
        self._shared: anyio.CapacityLimiter | None = None
        self._models: dict[str, anyio.CapacityLimiter] = {}
        self._handed = 0
        """Slots given up to a waiting task that has not run since (`handing_over`)."""
        self.lull = Lull(lull_s, lull_max_s)
        """What a judge answer's grading waits for while a wave's answers come (`llm/lull.py`)."""
        self._first_answer: anyio.Event | None = None

    @property
    def full(self) -> bool:
        """Whether every slot of the shared pool is taken."""
        return self._shared is not None and self._shared.available_tokens < 1

    def first_answer(self) -> anyio.Event:
        """Set once an answer has come (`after_answer`). Made in the caller's event loop."""
        if self._first_answer is None:
            self._first_answer = anyio.Event()
        return self._first_answer

    @property
    def handing_over(self) -> bool:
        """Whether a slot was given to a waiting task that has not yet resumed with it."""
        return self._handed > 0

    def _limiters(self, model: str) -> tuple[anyio.CapacityLimiter | None, anyio.CapacityLimiter]:
        with self._lock:
            if self._shared is None:
                self._shared = anyio.CapacityLimiter(self.concurrency)
            own = None
            if self.per_model is not None:
                own = self._models.get(model)
                if own is None:
                    own = self._models[model] = anyio.CapacityLimiter(self.per_model)
            return own, self._shared

    @asynccontextmanager
    async def slot(self, model: str) -> AsyncIterator[SlotUse]:
        own, shared = self._limiters(model)
        limiters = (shared,) if own is None else (own, shared)
        use = SlotUse()
        held: list[anyio.CapacityLimiter] = []
        try:
            waits = 0
            for lim in limiters:  # each asked as it is taken: its model's may be handed over
                waits += lim.available_tokens < 1  # first, then the pool's found full
                await lim.acquire()
                held.append(lim)
            self._handed = max(0, self._handed - waits)  # the slots handed to it are taken up
            try:
                yield use
            finally:
                handed = sum(1 for lim in limiters if lim.statistics().tasks_waiting)
                self._handed += handed
                use.handed = handed > 0
        finally:
            for lim in reversed(held):
                lim.release()

    async def after_answer(self, use: SlotUse, *, lull: bool) -> None:
        """Before an answer (read under `use`) is graded: let the tasks handed a slot send
        their requests first, yielding while any is still to go (a few turns at most); with
        `lull`, and when this answer's slot went to a waiting task (a full pool: more answers
        are due), also wait for the lull after the wave's answers (`llm/lull.py`). Shielded:
        the reply is settled and paid for, so a cancellation takes effect at the next await
        rather than throwing it away."""
        for _ in range(HANDOVER_TURNS):
            await anyio.lowlevel.cancel_shielded_checkpoint()
            if not self.handing_over:
                break
        self.lull.answered()
        if self._first_answer is not None:
            self._first_answer.set()
        if lull and use.handed:
            await self.lull.wait()
