"""A wave's gradings wait for the lull after its answers (`llm/lull.py`): one waiter times it,
the others are let go one per turn of the event loop in the order they came, the timing one
last, and nobody is left waiting."""

from __future__ import annotations

import anyio
import anyio.lowlevel

from mcptest.llm.lull import Lull


def test_waiters_go_in_the_order_they_came_one_per_turn_the_timing_one_last() -> None:
    lull = Lull(quiet_s=0.05, max_s=5)
    order: list[str] = []

    async def main() -> None:
        async def grade(name: str) -> None:
            lull.answered()
            await lull.wait()
            order.append(name)
            await anyio.lowlevel.checkpoint()
            order.append(f"{name} done")  # a grading of more than one step is not cut into

        async with anyio.create_task_group() as tg:
            for name in "abc":
                tg.start_soon(grade, name)
                await anyio.wait_all_tasks_blocked()

    anyio.run(main)
    assert [n for n in order if len(n) == 1] == ["b", "c", "a"]
    assert sorted(order) == ["a", "a done", "b", "b done", "c", "c done"]


def test_a_lull_never_outlasts_its_bound() -> None:
    lull = Lull(quiet_s=60, max_s=0.05)

    async def main() -> float:
        lull.answered()
        start = anyio.current_time()
        await lull.wait()
        return anyio.current_time() - start

    assert anyio.run(main) < 30  # bounded by max_s, not by the minute-long quiet
