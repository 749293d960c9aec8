"""The Done-when of issue 35's budget: 200 seeded cases of a sharded, repeated run never spend
above the run's one cap, whatever its custom judges report and however many tokens its
sampling servers ask for, at any concurrency; the shards' slices sum exactly to the cap.

Each case deals a cap over 4 shards (`judging.shard_slices.slice_units`, random projected
weights), then runs every shard as the pipeline does: one ledger per shard holding its slice,
one `ModelClient` per repetition on that ledger (`repeats.py`), and in each repetition a random
mix, all at once under a random pool size, of custom judges (`ModelClient.metered`: declared
or not, reporting random costs, some above their declaration) and priced model requests
asking a random `maxTokens` (`ModelClient.request`, as a sampling server's `createMessage`
reaches it through `run/sampler.py`). Every settle checks spent + reserved against the slice.
"""

from __future__ import annotations

import contextlib
import random
from dataclasses import dataclass

import anyio
import pytest

from mcptest.errors import BudgetRefused, JudgeError
from mcptest.judging.shard_slices import NANO_USD, slice_units
from mcptest.llm.budget import BudgetLedger, Price
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.model_client import ModelClient, RequestSpend

CASES = 200
SHARDS = 4


@dataclass
class Answer:
    """What a model stand-in says it used (the `Usage` a reply carries)."""

    prompt_tokens: int
    completion_tokens: int
    reported_cost: float | None = None


class Watch:
    """Checks the ledger's invariant whenever a call is in flight or has just settled, and
    keeps what the calls that ran claimed to spend."""

    def __init__(self, ledger: BudgetLedger, cap: float) -> None:
        self.ledger, self.cap, self.checks = ledger, cap, 0
        self.claimed = 0.0
        """Every report of a call that ran (custom judges' costs, tokens × price)."""
        self.unreserved = 0.0
        """What reports exceeded the most their call could have had reserved: the only
        spending the cap cannot hold (a judge past its word, an undeclared judge's surprise)."""
        self.largest: dict[str, float] = {}
        self.running: dict[str, int] = {}

    def check(self) -> None:
        self.checks += 1
        assert self.ledger.spent + self.ledger.reserved <= self.cap + 1e-9


async def _jitter(rng: random.Random) -> None:
    for _ in range(rng.randrange(4)):
        await anyio.lowlevel.checkpoint()


async def _repetition(client: ModelClient, rng: random.Random, watch: Watch) -> None:
    price = Price(input=rng.uniform(1e-7, 3e-6), output=rng.uniform(1e-6, 2e-5))
    judges = [(f"judge{j}", rng.choice([None, round(rng.uniform(0.0, 0.05), 4)]))
              for j in range(rng.randrange(1, 4))]

    async def custom(name: str, declared: float | None, cost: float) -> None:
        async def run() -> float:
            watch.check()
            watch.running[name] = watch.running.get(name, 0) + 1
            # an undeclared judge under a cap runs one call at a time
            assert declared is not None or watch.running[name] == 1
            bound = declared if declared is not None else watch.largest.get(name, 0.0)
            await _jitter(rng)
            watch.running[name] -= 1
            watch.claimed += cost
            watch.unreserved += max(0.0, cost - bound)
            watch.largest[name] = max(watch.largest.get(name, 0.0), cost)
            return cost

        with contextlib.suppress(BudgetRefused, JudgeError):
            await client.metered(name, declared, run, lambda c: c)
        watch.check()

    async def sample(max_tokens: int, prompt: int) -> None:
        async def send() -> Answer:
            watch.check()
            await _jitter(rng)
            answer = Answer(prompt, rng.randrange(0, max_tokens + 1))
            watch.claimed += price.cost(answer.prompt_tokens, answer.completion_tokens)
            return answer

        with contextlib.suppress(BudgetRefused):
            await client.request("sampled", send, price=price, prompt_tokens=prompt,
                                 max_tokens=max_tokens, tally=RequestSpend())
        watch.check()

    async with anyio.create_task_group() as tg:
        for _ in range(rng.randrange(4, 24)):
            if rng.random() < 0.5:
                name, declared = rng.choice(judges)
                ceiling = declared if declared else 0.04
                cost = rng.uniform(0.0, ceiling * (1.5 if rng.random() < 0.2 else 1.0))
                tg.start_soon(custom, name, declared, cost)
            else:
                tg.start_soon(sample, rng.choice([16, 256, 1024, 4096, 32000]),
                              rng.randrange(50, 3000))


def _case(seed: int) -> tuple[float, list[float], int, float]:
    rng = random.Random(seed)
    cap = round(rng.uniform(0.0, 0.4), 6)
    weights = [rng.choice([0.0, rng.uniform(0.0, 1.0)]) for _ in range(SHARDS)]
    units = slice_units(round(cap * NANO_USD), weights)
    assert sum(units) == round(cap * NANO_USD)  # exactly the cap
    spent: list[float] = []
    checks = 0
    claimed_past_reservations = 0.0
    for shard_cap in (u / NANO_USD for u in units):
        ledger = BudgetLedger(shard_cap)
        watch = Watch(ledger, shard_cap)
        options = JudgeOptions(concurrency=rng.randrange(1, 17), max_cost=shard_cap)

        async def shard(ledger: BudgetLedger = ledger, options: JudgeOptions = options,
                        watch: Watch = watch) -> None:
            for _ in range(rng.randrange(1, 4)):  # repetitions: one client each, one ledger
                if ledger.stopped:
                    break
                await _repetition(ModelClient(options, ledger=ledger), rng, watch)

        anyio.run(shard)
        assert ledger.reserved == pytest.approx(0.0, abs=1e-12)
        # all that was claimed fits in the slice, but for what no reservation could hold;
        # and that, as far as it did not fit, is kept apart, not counted as spent
        assert watch.claimed <= shard_cap + watch.unreserved + 1e-9, seed
        assert ledger.spent + ledger.beyond == pytest.approx(watch.claimed, abs=1e-9)
        assert ledger.beyond <= watch.unreserved + 1e-9
        spent.append(ledger.spent)
        checks += watch.checks
        claimed_past_reservations += watch.unreserved
    return cap, spent, checks, claimed_past_reservations


def test_two_hundred_sharded_repeated_runs_never_spend_above_the_cap() -> None:
    checks, honest = 0, 0
    for seed in range(CASES):
        cap, spent, n, unreserved = _case(seed)
        assert sum(spent) <= cap + 1e-9, (seed, cap, spent)
        checks += n
        honest += unreserved == 0.0
    assert checks > CASES * 20  # the invariant was looked at while calls were in flight
    assert honest > CASES // 10  # and many cases had nothing to keep apart


def test_slices_are_proportional_deterministic_and_exact() -> None:
    assert slice_units(100, [1.0, 1.0, 2.0, 0.0]) == [25, 25, 50, 0]
    assert slice_units(10, [1.0, 1.0, 1.0]) == [4, 3, 3]  # the remainder to the lower shard
    assert slice_units(7, [0.0, 0.0]) == [4, 3]  # nothing projected: dealt evenly
    assert slice_units(0, [3.0, 1.0]) == [0, 0]
    rng = random.Random(7)
    for _ in range(500):
        weights = [rng.random() ** 3 for _ in range(rng.randrange(1, 9))]
        cap = rng.randrange(0, 10**9)
        units = slice_units(cap, weights)
        assert sum(units) == cap and units == slice_units(cap, list(weights))
        assert all(u >= 0 for u in units)
