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


def test_an_answer_sets_the_pool_s_first_answer() -> None:
    """`after_answer` is what tells the row driver an answer came (its rows beyond a full pool
    wait for that, or for the first wave to be out)."""
    pool = JudgePool(1)

    async def main() -> bool:
        first = pool.first_answer()
        async with pool.slot("m") as use:
            pass
        assert not first.is_set()
        await pool.after_answer(use, lull=True)
        return first.is_set()

    assert anyio.run(main)


def test_a_judge_request_asks_for_the_lull_and_nothing_else_does() -> None:
    """A judge's grading may wait for its wave's answers (`lull=True`); the client's own
    default is not to (an agent's next turn never waits)."""
    import inspect
    from typing import Any, cast

    from mcptest.llm.budget import Price
    from mcptest.llm.call import Reply
    from mcptest.llm.judge_call import JudgeCall
    from mcptest.llm.model_client import ModelClient, RequestSpend
    from mcptest.llm.routing import Route
    from mcptest.suite.models import JudgeDefaults

    asked: dict[str, Any] = {}

    class Recording:
        """Stands in for the run's `ModelClient` (only what `JudgeCall.send` uses)."""

        cassettes = None

        async def request(self, model: str, send: Any, **kw: Any) -> Reply:
            asked.update(kw, model=model)
            return Reply(content="{}", refusal=None, prompt_tokens=1, completion_tokens=1,
                         reported_cost=None)

    call = JudgeCall(route=Route(model="judge-a", litellm_model="judge-a", gateway=True,
                                 api_base="http://127.0.0.1:9/v1", api_key="k"),
                     price=Price(input=0.0, output=0.0), settings=JudgeDefaults(),
                     timeout=5, thinking=0)
    client = cast("ModelClient", Recording())
    anyio.run(lambda: call.send(client, None, [{"role": "user", "content": "x"}], None,
                                RequestSpend(), count_tokens=False))
    assert asked["model"] == "judge-a" and asked["lull"] is True
    assert inspect.signature(ModelClient.request).parameters["lull"].default is False
