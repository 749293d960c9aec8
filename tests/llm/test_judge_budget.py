"""The USD cap holds at any concurrency, and every unsent call says why."""

from __future__ import annotations

import threading
import uuid

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support.judge_server import JudgeServer, Verdict

from mcptest.llm.budget import (
    BudgetLedger,
    BudgetRefused,
    Price,
    Reservation,
    lookup_price,
    prompt_token_bound,
)
from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.suite.models import JudgeDefaults, Pricing


def test_ledger_refuses_what_would_cross_the_cap() -> None:
    ledger = BudgetLedger(cap=1.0)
    a = ledger.reserve(0.6)
    with pytest.raises(BudgetRefused, match=r"^budget: "):
        ledger.reserve(0.5)
    ledger.settle(a, 0.2)
    b = ledger.reserve(0.8)
    assert ledger.spent == pytest.approx(0.2) and ledger.reserved == pytest.approx(0.8)
    ledger.settle(b, 0.1)
    ledger.settle(b, 5.0)  # settling twice changes nothing
    assert ledger.spent == pytest.approx(0.3) and ledger.refused == 1 and ledger.overruns == 0


def test_ledger_holds_under_threads() -> None:
    ledger = BudgetLedger(cap=10.0)

    def worker(seed: int) -> None:
        for i in range(300):
            amount = ((seed * 31 + i * 17) % 100) / 100
            try:
                r = ledger.reserve(amount)
            except BudgetRefused:
                continue
            assert ledger.spent + ledger.reserved <= 10.0 + 1e-9
            ledger.settle(r, amount * 0.5)

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ledger.spent <= 10.0 and ledger.reserved == pytest.approx(0.0, abs=1e-9)
    assert ledger.refused > 0


def test_price_lookup_never_assumes_free() -> None:
    table = {"gpt-4o-mini": {"input_cost_per_token": 1e-7, "output_cost_per_token": 2e-7},
             "half": {"input_cost_per_token": 1e-7}}
    assert lookup_price("openai/gpt-4o-mini", {}, table) == Price(input=1e-7, output=2e-7)
    assert lookup_price("half", {}, table) is None
    assert lookup_price("nope", {}, table) is None
    suite = lookup_price("nope", {"nope": Pricing(input=3, output=15)}, table)
    assert suite is not None and suite.input == pytest.approx(3e-6) and suite.source == "suite"


def test_prompt_bound_pads_the_count() -> None:
    msgs = [{"role": "user", "content": "x" * 300}]
    assert prompt_token_bound(msgs, counted=50) >= 100 * 1.25
    assert prompt_token_bound(msgs, counted=400) >= 400 * 1.25


calls = st.lists(
    st.tuples(st.floats(0.0, 0.05), st.integers(1, 64), st.integers(0, 400)),
    min_size=16, max_size=16,
)


@pytest.mark.slow
@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cap=st.floats(0.0, 0.08), price_in=st.floats(0.5, 10.0), price_out=st.floats(0.5, 20.0),
       plan=calls)
def test_sixteen_concurrent_calls_never_cross_the_cap(
        shared_server: JudgeServer, cap: float, price_in: float, price_out: float,
        plan: list[tuple[float, int, int]]) -> None:
    js = shared_server
    model = f"budget-{uuid.uuid4().hex[:8]}"
    for i, (latency, completion, _) in enumerate(plan):
        js.script(model, Verdict(score=0.5, latency=latency, completion_tokens=completion),
                  candidate=f"#cand{i:02d}#")
    defaults = JudgeDefaults(max_tokens=64, pricing={model: Pricing(input=price_in,
                                                                    output=price_out)})
    engine = JudgeEngine(JudgeOptions(concurrency=16, max_cost=cap, env=js.gateway_env(),
                                      defaults=defaults))
    outcomes: list[JudgeOutcome | None] = [None] * len(plan)

    async def run() -> None:
        async def one(i: int, size: int) -> None:
            outcomes[i] = await engine.judge(JudgeRequest(
                rubric="Is it fine?", candidate=f"#cand{i:02d}#" + "y" * size, model=model))

        async with anyio.create_task_group() as tg:
            for i, (_, _, size) in enumerate(plan):
                tg.start_soon(one, i, size)

    anyio.run(run)
    done = [o for o in outcomes if o is not None]
    stats = engine.stats()
    prompt, completion = js.usage(model)
    server_cost = prompt * price_in / 1e6 + completion * price_out / 1e6
    assert len(done) == 16
    assert stats.spent_usd <= cap + 1e-12
    assert server_cost <= cap + 1e-12
    assert stats.spent_usd == pytest.approx(server_cost, rel=1e-9, abs=1e-15)
    assert sum(o.cost_usd for o in done) == pytest.approx(server_cost, rel=1e-9, abs=1e-15)
    assert stats.overruns == 0 and stats.reserved_usd == pytest.approx(0, abs=1e-12)
    sent = [o for o in done if o.status == "verdict"]
    unsent = [o for o in done if o.status != "verdict"]
    assert js.count(model) == len(sent) == stats.calls_sent
    for o in unsent:
        assert o.status == "budget_skipped" and o.requests_sent == 0
        assert (o.message or "").startswith("budget: ") and "cap" in (o.message or "")
    assert stats.budget_stopped == bool(unsent) and stats.budget_refused == len(unsent)


faults = st.sampled_from(["ok", "server_error", "disconnect", "timeout", "malformed"])


@pytest.mark.slow
@settings(max_examples=10, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cap=st.floats(0.0, 0.06), kinds=st.lists(faults, min_size=16, max_size=16))
def test_sixteen_concurrent_calls_with_faults_never_cross_the_cap(
        shared_server: JudgeServer, cap: float, kinds: list[str]) -> None:
    """5xx, cut connections, timeouts (billed at their worst case) and unparseable answers (a
    stricter second request) among 16 concurrent calls: the ledger never passes the cap."""
    from support.judge_server import Fault

    js = shared_server
    model = f"faulty-{uuid.uuid4().hex[:8]}"
    steps = {"ok": Verdict(0.5, completion_tokens=30), "server_error": Fault.server_error(503),
             "disconnect": Fault.disconnect(), "timeout": Fault.slow(2.0),
             "malformed": Fault.malformed()}
    for i, kind in enumerate(kinds):
        js.script(model, steps[kind], candidate=f"#f{i:02d}#")
    defaults = JudgeDefaults(max_tokens=64, timeout=0.5,
                             pricing={model: Pricing(input=5.0, output=20.0)})
    engine = JudgeEngine(JudgeOptions(concurrency=16, max_cost=cap, env=js.gateway_env(),
                                      defaults=defaults, max_tries=2, retry_base_delay=0.0))
    outcomes: list[JudgeOutcome] = []

    async def run() -> None:
        async def one(i: int) -> None:
            outcomes.append(await engine.judge(JudgeRequest(
                rubric="Is it fine?", candidate=f"#f{i:02d}#", model=model)))

        async with anyio.create_task_group() as tg:
            for i in range(16):
                tg.start_soon(one, i)

    anyio.run(run)
    stats = engine.stats()
    assert len(outcomes) == 16
    assert stats.spent_usd <= cap + 1e-12
    assert stats.overruns == 0 and stats.reserved_usd == pytest.approx(0, abs=1e-12)
    assert sum(o.cost_usd for o in outcomes) == pytest.approx(stats.spent_usd, abs=1e-12)
    verdicts = sum(1 for o in outcomes if o.status == "verdict")
    assert verdicts <= kinds.count("ok")  # every fault ended as a failure, never a verdict
    assert all(o.status in ("verdict", "judge_error", "budget_skipped") for o in outcomes)


def test_after_a_refusal_in_flight_calls_settle_and_count_but_no_new_call_fits() -> None:
    """docs/judges.md "Budget": the first refusal for good stops the run's spending."""
    ledger = BudgetLedger(1.0)
    refused: list[BudgetRefused] = []

    async def dear() -> None:
        try:
            await ledger.acquire(0.7)
        except BudgetRefused as e:
            refused.append(e)

    async def scenario() -> None:
        in_flight = ledger.reserve(0.5)
        async with anyio.create_task_group() as tg:
            tg.start_soon(dear)  # does not fit while 0.5 is in flight: it waits
            await anyio.wait_all_tasks_blocked()
            assert not refused and not ledger.stopped
            ledger.settle(in_flight, 0.4)  # the call in flight finishes and is counted
        assert len(refused) == 1 and not refused[0].stopped and ledger.stopped
        assert ledger.spent == pytest.approx(0.4)
        with pytest.raises(BudgetRefused) as later:
            await ledger.acquire(0.01)  # would fit, but the run has stopped spending
        assert later.value.stopped and "the run stopped spending" in str(later.value)
        with pytest.raises(BudgetRefused):
            ledger.reserve(0.01)

    anyio.run(scenario)
    assert ledger.refused == 3 and ledger.reserved == 0.0 and ledger.spent == pytest.approx(0.4)


def test_a_hold_pays_its_draws_returns_what_they_left_and_outlives_a_stop() -> None:
    """An escalation cascade's hold (docs/cascade.md, "The budget"): draws come out of it
    without growing what is reserved, what a draw did not spend goes back for the next tier,
    a draw beyond it with nothing else in flight is refused at once (never waits on its own
    hold), the hold still pays after spending stopped, and closing it frees the rest."""

    async def scenario() -> None:
        ledger = BudgetLedger(1.0)
        hold = await ledger.acquire(0.6)
        first = await ledger.draw(hold, 0.2)
        assert ledger.reserved == pytest.approx(0.6) and hold.amount == pytest.approx(0.4)
        ledger.settle(first, 0.05)  # 0.15 unspent goes back to the hold
        assert hold.amount == pytest.approx(0.55) and ledger.spent == pytest.approx(0.05)
        with pytest.raises(BudgetRefused):
            await ledger.draw(hold, 1.0)  # 0.05 + 0.55 + 0.45 > 1.0: spending stops
        assert hold.amount == pytest.approx(0.55) and ledger.stopped
        with pytest.raises(BudgetRefused):
            await ledger.acquire(0.01)
        second = await ledger.draw(hold, 0.5)  # the cascade's next tier still runs
        ledger.settle(second, 0.5)
        over = await ledger.draw(hold, 0.01)  # the hold has 0.05 left: covered
        ledger.settle(over, 0.0)
        ledger.settle(hold, 0.0)
        assert ledger.reserved == pytest.approx(0.0) and ledger.spent == pytest.approx(0.55)
        assert ledger.overruns == 0

    anyio.run(scenario)


def test_a_draw_beyond_its_hold_acquires_the_rest_or_gives_it_back() -> None:
    async def scenario() -> None:
        ledger = BudgetLedger(0.5)
        hold = await ledger.acquire(0.3)
        big = await ledger.draw(hold, 0.4)  # 0.3 from the hold, 0.1 acquired
        assert hold.amount == 0.0 and ledger.reserved == pytest.approx(0.4)
        ledger.settle(big, 0.4)
        hold2 = await ledger.acquire(0.05)
        with pytest.raises(BudgetRefused):
            await ledger.draw(hold2, 0.2)  # 0.4 spent + 0.05 held + 0.15 more > 0.5
        assert hold2.amount == pytest.approx(0.05)  # what it took is back in the hold

    anyio.run(scenario)


def test_a_draw_beyond_its_hold_waits_for_another_call_to_settle() -> None:
    async def scenario() -> None:
        ledger = BudgetLedger(1.0)
        other = await ledger.acquire(0.5)
        hold = await ledger.acquire(0.4)
        drawn: list[Reservation] = []

        async def draw() -> None:
            drawn.append(await ledger.draw(hold, 0.6))  # needs 0.2 more: waits for `other`

        async with anyio.create_task_group() as tg:
            tg.start_soon(draw)
            await anyio.wait_all_tasks_blocked()
            assert drawn == []
            ledger.settle(other, 0.1)
        assert drawn[0].amount == pytest.approx(0.6) and not ledger.stopped
        assert ledger.spent + ledger.reserved == pytest.approx(0.1 + 0.6)

    anyio.run(scenario)


def test_a_report_past_the_caps_room_is_kept_apart_and_stops_spending() -> None:
    """Whatever a call reports, spent + reserved stays under the cap: what does not fit is the
    reporter's error (`beyond`), and no new call is let through after it."""
    ledger = BudgetLedger(cap=0.5)
    other = ledger.reserve(0.1)
    first = ledger.reserve(0.2)
    ledger.settle(first, 0.3)  # above its reservation but within the room: counted
    assert ledger.spent == pytest.approx(0.3) and ledger.beyond == 0.0
    second = ledger.reserve(0.05)
    ledger.settle(second, 2.0)  # room left: 0.5 - 0.3 - 0.1 = 0.1
    assert ledger.spent == pytest.approx(0.4) and ledger.beyond == pytest.approx(1.9)
    assert ledger.spent + ledger.reserved <= 0.5 + 1e-12
    assert ledger.overruns == 2 and ledger.stopped
    with pytest.raises(BudgetRefused):
        ledger.reserve(0.0)
    ledger.settle(other, 0.1)
    assert ledger.spent == pytest.approx(0.5)


def test_without_a_cap_every_report_counts() -> None:
    ledger = BudgetLedger(cap=None)
    ledger.settle(ledger.reserve(0.0), 3.0)
    assert ledger.spent == 3.0 and ledger.beyond == 0.0 and not ledger.stopped


def test_a_mark_measures_one_part_of_a_shared_ledger() -> None:
    ledger = BudgetLedger(cap=1.0)
    ledger.settle(ledger.reserve(0.3), 0.25)
    mark = ledger.mark()
    ledger.settle(ledger.reserve(0.3), 0.1)
    with pytest.raises(BudgetRefused):
        ledger.reserve(0.9)
    part = ledger.since(mark)
    assert part.spent == pytest.approx(0.1) and part.refused == 1 and part.beyond == 0.0
    assert ledger.spent == pytest.approx(0.35)
