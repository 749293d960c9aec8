"""Custom judges metered like model calls: a pool slot, their worst case reserved in the run's
one ledger before they start, their reported cost settled after (docs/evals.md).

The model client (llm/model_client.py) holds one `CustomJudgeMeter` over its own pool and
ledger; `ModelClient.metered` is the way in.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, TypeVar

import anyio

from mcptest.errors import JudgeError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from mcptest.llm.budget import BudgetLedger
    from mcptest.llm.pool import JudgePool

T = TypeVar("T")


class OverDeclared(JudgeError):
    """A custom judge reported spending more than it declared (`max_cost_usd`)."""

    def __init__(self, reported: float, declared: float) -> None:
        self.reported, self.declared = reported, declared
        super().__init__(f"it reported ${reported:.6f}, above its declared max_cost_usd "
                         f"${declared:.6f} (raise max_cost_usd so the budget can reserve it)")


class CustomJudgeMeter:
    """The pool and ledger of one model client, as custom judges use them."""

    def __init__(self, pool: JudgePool, ledger: BudgetLedger) -> None:
        self.pool = pool
        self.ledger = ledger
        self._lock = threading.Lock()
        self._one_at_a_time: dict[str, anyio.Lock] = {}
        """Custom judges that declared no worst case run one call at a time under a cap."""

    async def metered(self, name: str, declared: float | None, run: Callable[[], Awaitable[T]],
                      cost_of: Callable[[T], float]) -> T:
        """Run a custom judge like a model call: a pool slot, its worst case reserved before it
        starts (`BudgetRefused` when it cannot fit), its reported cost settled after.

        The worst case is `declared` (`max_cost_usd`), or the most it reported before, if more:
        a judge that once broke its declaration is no longer trusted. A judge that declared
        none runs one call at a time under a cap, reserved at the most it has reported so far,
        so no two of its calls can spend past the cap together (docs/evals.md). Under a cap a
        report above the declaration raises `OverDeclared` (its cost still counts: it was
        spent, as far as the cap has room, `BudgetLedger.settle`); without one there is
        nothing to protect and the report simply counts."""
        if declared is None and self.ledger.cap is not None:
            with self._lock:
                lock = self._one_at_a_time.setdefault(name, anyio.Lock())
            async with lock:
                return await self._metered(name, declared, run, cost_of)
        return await self._metered(name, declared, run, cost_of)

    async def _metered(self, name: str, declared: float | None, run: Callable[[], Awaitable[T]],
                       cost_of: Callable[[T], float]) -> T:
        async with self.pool.slot(name):
            reserve = max(declared or 0.0, self.ledger.largest(name))
            reservation = await self.ledger.acquire(reserve)
            try:
                result = await run()
            except Exception:
                self.ledger.settle(reservation, 0.0)  # it failed: it reported nothing spent
                raise
            except BaseException:  # cancelled mid-run: count what it may have spent
                self.ledger.settle(reservation, reservation.amount)
                raise
            reported = cost_of(result)
            self.ledger.settle(reservation, reported)
            self.ledger.largest(name, reported)
            if (declared is not None and self.ledger.cap is not None
                    and reported > declared + 1e-12):
                raise OverDeclared(reported, declared)
            return result
