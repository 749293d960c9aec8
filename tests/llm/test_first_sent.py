"""`ModelClient.first_sent` (what the run's warm-up waits for, `run/warm.py`) is set once the
first requests are on the wire: not while another request that holds a pool slot is still
being prepared (opening its connection), which work in the loop would hold back. And an
answer's successor is sent before the answers read with it are graded."""

from __future__ import annotations

import anyio
import anyio.lowlevel
from support.judge_server import JudgeServer, Verdict

from mcptest.llm.call import Reply
from mcptest.llm.contracts import JudgeOptions, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.llm.model_client import ModelClient, RequestSpend
from mcptest.llm.openai_route import ON_WIRE
from mcptest.llm.pool import JudgePool

REPLY = Reply(content='{"score": 1}', refusal=None, prompt_tokens=1, completion_tokens=1,
              reported_cost=None)


def test_first_sent_waits_for_every_request_holding_a_slot() -> None:
    client = ModelClient(JudgeOptions(concurrency=3))
    seen: list[str] = []

    async def main() -> None:
        sent = client.first_sent()
        connected, answered = anyio.Event(), anyio.Event()

        async def call(name: str, slow: bool) -> None:
            async def send() -> Reply:
                await anyio.lowlevel.checkpoint()  # every first request opens a connection
                if slow:
                    await connected.wait()  # still opening its connection
                written = ON_WIRE.get()
                assert written is not None
                written()
                seen.append(f"{name} written, first_sent {sent.is_set()}")
                await answered.wait()
                return REPLY

            await client.request("m", send, price=None, prompt_tokens=1, max_tokens=1,
                                 tally=RequestSpend())

        async with anyio.create_task_group() as tg:
            for name, slow in (("a", False), ("b", True), ("c", True)):
                tg.start_soon(call, name, slow)
            await anyio.wait_all_tasks_blocked()
            assert seen == ["a written, first_sent False"]
            connected.set()
            await sent.wait()
            answered.set()

    anyio.run(main)
    assert seen == ["a written, first_sent False", "b written, first_sent False",
                    "c written, first_sent True"]
    assert client.requests_sent == 3


def test_the_successors_of_answers_read_together_are_sent_before_any_is_graded() -> None:
    """Two answers read in one turn of the loop; the two requests waiting for their pool
    slots are written before either answer is graded (each waited for one grading before)."""
    client = ModelClient(JudgeOptions(concurrency=2))
    order: list[str] = []

    async def main() -> None:
        answered = anyio.Event()

        async def call(name: str) -> None:
            async def send() -> Reply:
                order.append(f"{name} written")
                if name in "ab":
                    await answered.wait()
                return REPLY

            await client.request("m", send, price=None, prompt_tokens=1, max_tokens=1,
                                 tally=RequestSpend())
            order.append(f"{name} graded")

        async with anyio.create_task_group() as tg:
            for name in "abcd":
                tg.start_soon(call, name)
            await anyio.wait_all_tasks_blocked()
            answered.set()

    anyio.run(main)
    assert order[:4] == ["a written", "b written", "c written", "d written"]
    assert sorted(order[4:]) == ["a graded", "b graded", "c graded", "d graded"]


def _staggered(lull: bool) -> list[str]:
    """a answers a few turns of the loop before b and c (c took a's slot), d waits for a slot
    and answers at once: the order of writes, answers and gradings."""
    client = ModelClient(JudgeOptions(concurrency=2))
    client.pool = JudgePool(2, lull_s=0.2, lull_max_s=5)  # a lull no loaded machine misses
    order: list[str] = []

    async def main() -> None:
        first, second = anyio.Event(), anyio.Event()

        async def call(name: str) -> None:
            async def send() -> Reply:
                order.append(f"{name} written")
                if name in "abc":
                    await (first if name == "a" else second).wait()
                    order.append(f"{name} answered")
                return REPLY

            await client.request("m", send, price=None, prompt_tokens=1, max_tokens=1,
                                 tally=RequestSpend(), lull=lull)
            order.append(f"{name} graded")

        async with anyio.create_task_group() as tg:
            for name in "abcd":
                tg.start_soon(call, name)
            await anyio.wait_all_tasks_blocked()
            first.set()
            for _ in range(4):
                await anyio.lowlevel.checkpoint()
            second.set()

    anyio.run(main)
    return order


def test_a_judge_answer_is_graded_after_the_answers_that_come_within_the_lull() -> None:
    """With a full pool (its slot went to a waiting request) a judge's answer waits for the
    lull after a wave's answers before it is graded; an agent's turn (no lull) goes on at once."""
    waited = _staggered(lull=True)
    assert waited.index("a graded") > waited.index("d written") > waited.index("b answered")
    at_once = _staggered(lull=False)
    assert at_once.index("c written") < at_once.index("a graded") < at_once.index("b answered")
    assert sorted(waited) == sorted(at_once)  # the same work either way


def test_on_the_fast_route_it_is_set_when_the_request_is_written_not_answered() -> None:
    with JudgeServer(route="fast") as js:
        js.script("gw-judge", Verdict(score=0.8, latency=0.2))
        engine = JudgeEngine(JudgeOptions(env=js.gateway_env()))
        done: list[str] = []

        async def judge() -> None:
            o = await engine.judge(JudgeRequest(rubric="r", candidate="c", model="gw-judge"))
            done.append(o.status)

        async def main() -> list[str]:
            sent = engine.client.first_sent()
            async with anyio.create_task_group() as tg:
                tg.start_soon(judge)
                await sent.wait()
                at_sent = list(done)
            await engine.client.aclose()
            return at_sent

        assert anyio.run(main) == [] and done == ["verdict"]
