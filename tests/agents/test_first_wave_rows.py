"""Fixed-response rows beyond a full judge pool are prepared once the first wave is on the wire
(`RowDriver._first_wave_out`): preparing them between the first requests spread those out. It
never waits for a request that will not come: an answer or a finished row lets it go too."""

from __future__ import annotations

import anyio
import anyio.lowlevel
import pytest

from mcptest.agents.driver import RowDriver
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.engine import JudgeEngine
from mcptest.run.runner import RunState


class _NoAssertions:
    """The rows here are fixed-response evals: no LLM assertion is graded."""

    async def grade(self, *_: object) -> None:
        raise AssertionError("no LLM assertion here")


def _driver() -> RowDriver:
    engine = JudgeEngine(JudgeOptions(concurrency=1))
    return RowDriver(llm=_NoAssertions(), engine=engine, env={}, state=RunState())


@pytest.mark.parametrize("signal", ["first wave written", "an answer", "a row ended"])
def test_the_rows_waiting_for_a_full_pool_are_prepared_after_the_first_wave(signal: str) -> None:
    driver = _driver()
    client = driver.engine.client
    went: list[bool] = []

    async def main() -> None:
        done = anyio.Event()
        async with client.pool.slot("m"):  # the first row holds the only slot
            assert client.pool.full
            async with anyio.create_task_group() as tg:
                async def wait() -> None:
                    await driver._first_wave_out(done)
                    went.append(done.is_set())

                tg.start_soon(wait)
                await anyio.wait_all_tasks_blocked()
                assert went == []  # the first wave is not out yet
                if signal == "first wave written":
                    client.first_sent().set()
                elif signal == "an answer":
                    client.pool.first_answer().set()
                else:
                    done.set()
        await driver._first_wave_out(done)  # once it went, it never waits again
        went.append(True)

    anyio.run(main)
    assert went == [True, True]
