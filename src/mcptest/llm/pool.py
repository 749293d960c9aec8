"""One bounded pool for every judge request of a run, plus a limit per model.

A suite with 500 LLM assertions must not open 500 connections, and one slow provider must not
hog every slot: a request first takes a slot of its model, then one of the shared pool.

A slot given up while others wait goes to the first of them, which sends its request when it
next runs; `handing_over` says such a request is still to go, so the work that follows an answer
(its grading) can let it go first (`ModelClient._send`).
"""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager, nullcontext
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from collections.abc import AsyncIterator


class JudgePool:
    def __init__(self, concurrency: int = 8, per_model: int | None = None) -> None:
        if concurrency < 1 or (per_model is not None and per_model < 1):
            raise ValueError("concurrency limits must be at least 1")
        self.concurrency = concurrency
        self.per_model = per_model
        self._lock = threading.Lock()
        self._shared: anyio.CapacityLimiter | None = None
        self._models: dict[str, anyio.CapacityLimiter] = {}
        self._handed = 0
        """Slots given up to a waiting task that has not run since (`handing_over`)."""

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
    async def slot(self, model: str) -> AsyncIterator[None]:
        own, shared = self._limiters(model)
        limiters = (shared,) if own is None else (own, shared)
        waits = sum(1 for lim in limiters if lim.available_tokens < 1)
        async with own if own is not None else nullcontext(), shared:
            self._handed = max(0, self._handed - waits)  # the slots handed to it are taken up
            try:
                yield
            finally:
                self._handed += sum(1 for lim in limiters if lim.statistics().tasks_waiting)
