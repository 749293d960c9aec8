"""The run's shift watch admits a cascade's items by place (judging/shift_recheck.py
`_Watch.admit`): whatever order their first tier answers in, the look after 30 items sees the
first 30 items' answers and no later item asks the first tier once it fired, so a replay from
model cassettes asks what the recording asked."""

from __future__ import annotations

import random

import anyio
import pytest

from mcptest.calibrate.shift import TierSample
from mcptest.calibrate.shift_looks import ShiftLooks
from mcptest.judging.shift_recheck import _Watch

ITEMS = 40
pytestmark = pytest.mark.slow  # anyio's wait_all_tasks_blocked polls: ~3 s a seed at 8 at once


async def _asked(seed: int, concurrency: int) -> tuple[list[int], int | None]:
    """Which items asked tier 1 when its answers finish in the order `seed` draws."""
    labels = [TierSample([0.9 + 0.001 * k for k in range(60)], 58), None]
    watch = _Watch(ShiftLooks(labels), anyio.CapacityLimiter(concurrency), halts=True)
    rng = random.Random(seed)
    answering: dict[int, anyio.Event] = {}
    asked: list[int] = []

    async def item(i: int) -> None:
        async with watch.admit(), watch.turn() as halted:
            if halted is not None:
                return
            asked.append(i)
            answering[i] = anyio.Event()
            await answering[i].wait()
            del answering[i]
            watch.saw(0, 0.2, True)

    async with anyio.create_task_group() as tg:
        for i in range(ITEMS):
            tg.start_soon(item, i)
        while True:
            await anyio.wait_all_tasks_blocked()
            if not answering:
                break
            answering[rng.choice(sorted(answering))].set()  # any answer in flight finishes
    return sorted(asked), watch.looks.fired_after


@pytest.mark.parametrize("concurrency", [8, 40])
def test_the_items_that_ask_tier_1_do_not_depend_on_the_finishing_order(concurrency: int
                                                                          ) -> None:
    for seed in range(3):
        asked, fired_after = anyio.run(_asked, seed, concurrency)
        assert fired_after == 30
        assert asked == list(range(30)), (seed, asked)
