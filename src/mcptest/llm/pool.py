"""One bounded pool for every judge request of a run, plus a limit per model.

A suite with 500 LLM assertions must not open 500 connections, and one slow provider must not
hog every slot: a request first takes a slot of its model, then one of the shared pool.
"""

from __future__ import annotations

import threading
from contextlib import asynccontextmanager
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
        if own is None:
            async with shared:
                yield
            return
        async with own, shared:
            yield
