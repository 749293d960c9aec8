"""Servers kept warm across runs (`mcptest run --watch`, docs/watch.md): each connection is held
open in a task of the pool's own, so the runs of a watch session reuse it, and it is restarted
only when its definition changes, its own files change, or it died.

A run given a pool asks it for each server instead of opening one (run/runner.py); the pool
lives as long as the task group it is given.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import anyio
import anyio.abc

from mcptest.errors import ServerNotReadyError

if TYPE_CHECKING:
    from mcptest.run.session import ServerConnection

Key = tuple[str, str]
Opener = Callable[[], AbstractAsyncContextManager["ServerConnection"]]


@dataclass
class _Held:
    fingerprint: str
    conn: ServerConnection | None = None
    failure: ServerNotReadyError | None = None
    ready: anyio.Event = field(default_factory=anyio.Event)
    stop: anyio.Event = field(default_factory=anyio.Event)
    done: anyio.Event = field(default_factory=anyio.Event)


class ServerPool:
    """Connections by (suite file, server name), each held open until `restart` or `aclose`."""

    def __init__(self, tasks: anyio.abc.TaskGroup) -> None:
        self._tasks = tasks
        self._held: dict[Key, _Held] = {}
        self.started: dict[Key, int] = {}
        """How many times each server was started: a test can see a server kept warm."""

    async def connection(self, key: Key, fingerprint: str, opener: Opener) -> ServerConnection:
        """The live connection of `key`, opened now if it has none, if the server's
        definition changed (`fingerprint`) or if it died. Raises `ServerNotReadyError`."""
        held = self._held.get(key)
        if held is not None and (held.fingerprint != fingerprint or held.failure is not None
                                 or held.conn is None or not held.conn.alive):
            await self.restart(key)
            held = None
        if held is None:
            held = self._held[key] = _Held(fingerprint)
            self.started[key] = self.started.get(key, 0) + 1
            self._tasks.start_soon(self._hold, held, opener)
        await held.ready.wait()
        if held.failure is not None:
            raise held.failure
        assert held.conn is not None
        return held.conn

    async def _hold(self, held: _Held, opener: Opener) -> None:
        try:
            async with opener() as conn:
                held.conn = conn
                held.ready.set()
                await held.stop.wait()
        except ServerNotReadyError as e:
            held.failure = e
        finally:
            held.ready.set()
            held.done.set()

    async def restart(self, key: Key) -> None:
        """Stop `key`'s server (it starts again when next asked for)."""
        held = self._held.pop(key, None)
        if held is not None:
            held.stop.set()
            await held.done.wait()

    def keys(self) -> list[Key]:
        return list(self._held)

    async def aclose(self) -> None:
        for key in list(self._held):
            await self.restart(key)
