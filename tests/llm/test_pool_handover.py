"""`JudgePool`'s count of slots handed to waiting tasks (`handing_over`), which an answer's
grading yields to: it must come back to zero once every slot is free, or every later answer
yields its full `HANDOVER_TURNS` for nothing."""

from __future__ import annotations

import anyio

from mcptest.llm.pool import JudgePool


def test_a_task_that_waits_on_its_model_then_on_the_pool_counts_both_handovers() -> None:
    """Concurrency 2, one call per model: A's second call waits for A's slot, gets it, then finds
    the pool full and waits again; both slots it is handed are taken up."""
    pool = JudgePool(2, per_model=1)
    release = {k: anyio.Event() for k in ("a1", "b1", "c1")}

    async def hold(name: str, model: str, entered: anyio.Event | None = None) -> None:
        async with pool.slot(model):
            if entered is not None:
                entered.set()
            if name in release:
                await release[name].wait()

    async def main() -> None:
        async with anyio.create_task_group() as tg:
            entered = anyio.Event()
            tg.start_soon(hold, "a1", "A", entered)
            await entered.wait()  # A1 holds A's slot and one of the pool's two
            tg.start_soon(hold, "a2", "A")
            await anyio.wait_all_tasks_blocked()  # A2 waits for A's slot
            entered = anyio.Event()
            tg.start_soon(hold, "b1", "B", entered)
            await entered.wait()  # the pool is full
            release["a1"].set()  # A's slot is handed to A2 …
            entered = anyio.Event()
            tg.start_soon(hold, "c1", "C", entered)
            await entered.wait()  # … but C1 takes the pool's freed slot first
            await anyio.wait_all_tasks_blocked()  # A2 now waits for the pool
            release["b1"].set()
            await anyio.wait_all_tasks_blocked()  # the pool's slot is handed to A2
            release["c1"].set()
        assert not pool.handing_over

    anyio.run(main)
