"""When a run's first requests are on the wire: what its warm-up waits for (`run/warm.py`).

Not the first request alone: a wave of them (`--concurrency`) opens its connections together,
and work in the event loop started when the first is written would hold the others back. So
the moment is when a request was written and no other try that holds a pool slot is still
being prepared (opening its connection, writing). On the OpenAI-compatible route a try counts
as written when its body is (`openai_route.ON_WIRE`); on litellm's, when its answer is back.
"""

from __future__ import annotations

from contextlib import AbstractContextManager, contextmanager, nullcontext
from typing import TYPE_CHECKING

import anyio

from mcptest.llm.openai_route import ON_WIRE

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator


class FirstWave:
    """One per model client; its event is made when asked for (in the caller's event loop)."""

    def __init__(self) -> None:
        self._sent: anyio.Event | None = None
        self._preparing = 0
        """Tries holding a pool slot and not yet written, until the event is set."""

    def sent(self) -> anyio.Event:
        if self._sent is None:
            self._sent = anyio.Event()
        return self._sent

    def trying(self) -> AbstractContextManager[None]:
        """Around one try's send: counted until it is written (or fails), while anyone waits."""
        if self._sent is None or self._sent.is_set():
            return nullcontext()
        return self._counted()

    @contextmanager
    def _counted(self) -> Iterator[None]:
        written = self._written()
        token = ON_WIRE.set(written)
        try:
            yield
        finally:
            ON_WIRE.reset(token)
            written()

    def _written(self) -> Callable[[], None]:
        """What the try calls when its request is written (only its first call counts)."""
        self._preparing += 1
        done = False

        def written() -> None:
            nonlocal done
            if not done:
                done = True
                self._preparing -= 1
                if self._preparing == 0 and self._sent is not None:
                    self._sent.set()
        return written
