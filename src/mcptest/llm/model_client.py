"""The one model client: every model call of a run, judge or agent, goes through here.

Each request takes a pool slot (shared, and per model), reserves its worst case in the budget
ledger before it is sent (waiting while calls in flight may free room), is retried by our policy,
and settles what it really cost. Custom judges run through `metered` under the same pool and
budget (`llm/custom_meter.py`). Nothing else in mcptest holds a pool, a ledger or a retry
policy (docs/architecture.md, "Where cost is reserved").
"""

from __future__ import annotations

import json
import threading
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

import anyio

from mcptest.errors import BudgetRefused, ProviderError
from mcptest.llm.budget import BudgetLedger, Price, Reservation
from mcptest.llm.custom_meter import CustomJudgeMeter
from mcptest.llm.first_wave import FirstWave
from mcptest.llm.imports import LitellmLoader
from mcptest.llm.offline import NotRecorded, OfflineRoute
from mcptest.llm.openai_route import OpenAIRoute, applies
from mcptest.llm.pool import JudgePool
from mcptest.llm.price_table import price_table
from mcptest.llm.retry import RetriesExhausted, RetryPolicy, classify, with_retries
from mcptest.llm.routing import Route, Unroutable
from mcptest.report.redact import redact_text, redact_value, secret_values

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Mapping

    from mcptest.llm.cassette import Cassettes
    from mcptest.llm.cassette_codec import Sent
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.telemetry.hooks import Tracing

T = TypeVar("T")
_HOLD: ContextVar[Reservation | None] = ContextVar("mcptest_budget_hold", default=None)
"""The hold the current task's requests draw from (`ModelClient.hold`): a context variable, so a
cascade's tiers find it in the tasks they start without every grader passing it along."""


class Usage(Protocol):
    """What a reply says it used (every reply type of `mcptest.llm.call`)."""

    @property
    def prompt_tokens(self) -> int: ...
    @property
    def completion_tokens(self) -> int: ...
    @property
    def reported_cost(self) -> float | None: ...


R = TypeVar("R", bound=Usage)


@dataclass
class RequestSpend:
    """What one logical request (its retries and fallbacks included) sent and cost."""

    sent: int = 0
    cost: float = 0.0
    cost_known: bool = True
    prompt_tokens: int = 0
    completion_tokens: int = 0


class ModelClient:
    """One per run: the pool, the ledger, the retry policy, the lazy litellm import and the
    fast OpenAI-compatible route (`llm/openai_route.py`)."""

    def __init__(self, options: JudgeOptions, cassettes: Cassettes | None = None,
                 ledger: BudgetLedger | None = None) -> None:
        self.options = options
        self.cassettes = cassettes
        """`--models record|replay|replay-or-record` (`llm/cassette.py`); None: every request
        is sent."""
        self.loader = LitellmLoader()
        self.openai = OpenAIRoute()
        self.pool = JudgePool(options.concurrency, options.per_model_concurrency)
        self.ledger = ledger if ledger is not None else BudgetLedger(options.max_cost)
        """The run's one ledger: shared by its repetitions, a pytest session's files and a
        shard's slice (`llm/budget.py`); this client's share of it is `ledger.since(mark)`."""
        self.mark = self.ledger.mark()
        self.policy = RetryPolicy(max_tries=options.max_tries, base_delay=options.retry_base_delay,
                                  max_total=options.retry_max_total)
        self._secrets = secret_values(options.env)
        self._known = frozenset(self._secrets | set(options.secrets))
        self._lock = threading.Lock()
        self._sent = 0
        self.meter = CustomJudgeMeter(self.pool, self.ledger)
        self.tracing: Tracing | None = None
        """Set by the pipeline on a traced run: a span per request (docs/tracing.md)."""
        self.first_wave = FirstWave()

    def first_sent(self) -> anyio.Event:
        """Set once the client's first requests are on the wire: the run's wait for its first
        answers begins (`llm/first_wave.py`, `run/warm.py`). Made in the caller's loop."""
        return self.first_wave.sent()

    def start(self) -> None:
        """Begin importing litellm in the background (once the plan shows model calls)."""
        self.loader.start()

    async def aclose(self) -> None:
        """Close the fast route's kept-alive connections of this event loop (litellm keeps
        its own): an in-process run (the Action, tests) must not leave sockets to the GC."""
        await self.openai.aclose()

    def fast(self, r: Route) -> bool:
        """Whether `r` goes over the fast route (no litellm) rather than through litellm."""
        return isinstance(r, OfflineRoute) or applies(r, self.options.env)

    def routed(self, r: Route | Unroutable) -> Route | Unroutable:
        """`r`, except that in a replay a model that cannot be reached now (no key, no
        gateway) is still asked: its cassette answers, or it is deferred (docs/cassettes.md)."""
        if (self.cassettes is None or not self.cassettes.replays
                or not isinstance(r, Unroutable) or r.model is None):
            return r
        return OfflineRoute(model=r.model, litellm_model=r.model, api_base=r.api_base,
                            reason=r.reason)

    async def litellm(self) -> Any:
        return self.loader.get() if self.loader.loaded else await anyio.to_thread.run_sync(
            self.loader.get)

    def model_cost(self) -> Mapping[str, Any]:
        """litellm's price table: the live one once imported, else read as data."""
        return self.loader.get().model_cost if self.loader.loaded else price_table()

    def redact(self, text: str) -> str:
        """`text` with every key of the environment, and anything key-shaped, masked."""
        return redact_text(text, self._secrets)

    @property
    def requests_sent(self) -> int:
        """Model requests sent by this client (judges and agents, retries included)."""
        with self._lock:
            return self._sent

    async def request(self, model: str, send: Callable[[], Awaitable[R]], *,
                      price: Price | None, prompt_tokens: int, max_tokens: int, tally: RequestSpend,
                      fallback: Callable[[BaseException], bool] | None = None,
                      sent: Sent | None = None, lull: bool = False) -> R:
        """Send one request under a pool slot: reserve → send → settle, with our retries.

        `prompt_tokens` is the padded worst case of the prompt; `fallback(error)` may change
        what `send` sends and return True to try once more at once (not counted as a retry).
        `sent` is what the request holds, for the run's cassettes: a replay answers from the
        recording with nothing sent and nothing spent, a recording keeps the answer.
        `lull`: what follows the answer can wait while a wave's answers are coming in
        (`JudgePool.after_answer`; a judge's grading, never an agent's next turn).
        Raises `BudgetRefused` (nothing sent), `RetriesExhausted` or `NotRecorded`.
        """
        if self.tracing is None:
            return await self._request(model, send, price=price, prompt_tokens=prompt_tokens,
                                       max_tokens=max_tokens, tally=tally, fallback=fallback,
                                       sent=sent, lull=lull)
        before = (tally.prompt_tokens, tally.completion_tokens, tally.cost, tally.sent)
        with self.tracing.model_call(model) as note:
            out = await self._request(model, send, price=price, prompt_tokens=prompt_tokens,
                                      max_tokens=max_tokens, tally=tally, fallback=fallback,
                                      sent=sent, lull=lull)
            note.done(prompt_tokens=tally.prompt_tokens - before[0],
                      completion_tokens=tally.completion_tokens - before[1],
                      cost_usd=tally.cost - before[2], replayed=tally.sent == before[3])
        return out

    async def _request(self, model: str, send: Callable[[], Awaitable[R]], *,
                       price: Price | None, prompt_tokens: int, max_tokens: int,
                       tally: RequestSpend, fallback: Callable[[BaseException], bool] | None,
                       sent: Sent | None, lull: bool = False) -> R:
        tapes = self.cassettes if sent is not None else None
        if tapes is None or sent is None:
            return await self._send(model, send, price=price, prompt_tokens=prompt_tokens,
                                    max_tokens=max_tokens, tally=tally, fallback=fallback,
                                    lull=lull)
        from mcptest.llm.cassette_codec import decode
        from mcptest.llm.cassette_file import canonical

        asked = json.loads(canonical(self._redacted(sent.request())))  # a copy: lists grow
        if (hit := tapes.replay(asked)) is not None:
            reply = decode(sent.kind, hit)
            tally.prompt_tokens += reply.prompt_tokens
            tally.completion_tokens += reply.completion_tokens
            return cast(R, reply)
        if sent.offline is not None:
            raise NotRecorded(sent.offline, deferred=True)
        try:
            out = await self._send(model, send, price=price, prompt_tokens=prompt_tokens,
                                   max_tokens=max_tokens, tally=tally, fallback=fallback,
                                   lull=lull)
        except BaseException:
            tapes.lost()
            raise
        return cast(R, tapes.record(asked, cast(Any, out), self._redacted))

    def _redacted(self, value: Any) -> Any:
        """`value` as reports show it: the run's known secrets and key-shaped tokens masked."""
        return redact_value(value, self._known)

    async def _send(self, model: str, send: Callable[[], Awaitable[R]], *,
                    price: Price | None, prompt_tokens: int, max_tokens: int, tally: RequestSpend,
                    fallback: Callable[[BaseException], bool] | None, lull: bool = False) -> R:
        """`request` on the wire: a pool slot, the budget, our retries."""
        worst = price.cost(prompt_tokens, max_tokens) if price is not None else 0.0
        sends = 0

        async def attempt() -> R:
            nonlocal sends
            held = _HOLD.get()
            reservation = (await self.ledger.draw(held, worst) if held is not None
                           else await self.ledger.acquire(worst))
            sends += 1
            tally.sent += 1
            with self._lock:
                self._sent += 1
            try:
                with self.first_wave.trying():
                    reply = await send()
            except Exception as e:
                # A timed-out or cut request may still be billed: count its worst case. One
                # never delivered (`unreachable`, or one that could not be formed) or answered
                # with an error costs nothing, and one never delivered was not sent (it is
                # still a try).
                kind = classify(e).kind
                if isinstance(e, ProviderError) and e.unsent:
                    tally.sent -= 1
                    with self._lock:
                        self._sent -= 1
                billed = kind in ("timeout", "transport")
                charged = reservation.amount if billed else 0.0
                self.ledger.settle(reservation, charged)
                tally.cost += charged
                if fallback is not None and fallback(e):
                    return await attempt()
                raise
            except BaseException:
                # Cancelled mid-flight (SIGTERM, a timeout around us): the provider may still
                # bill it, so the report counts its reserved worst case, never $0.
                self.ledger.settle(reservation, reservation.amount)
                tally.cost += reservation.amount
                raise
            if price is not None:
                actual = price.cost(reply.prompt_tokens, reply.completion_tokens)
            else:
                actual = reply.reported_cost or 0.0
                tally.cost_known = tally.cost_known and reply.reported_cost is not None
            self.ledger.settle(reservation, actual)
            tally.cost += actual
            tally.prompt_tokens += reply.prompt_tokens
            tally.completion_tokens += reply.completion_tokens
            return reply

        async with self.pool.slot(model) as use:
            try:
                out = await with_retries(attempt, self.policy, passthrough=(BudgetRefused,))
            except RetriesExhausted as e:  # the true count: format fallbacks are sends too
                raise RetriesExhausted(e.last, sends) from e.__cause__
        # its successors' requests go before this answer is graded (`JudgePool.after_answer`)
        await self.pool.after_answer(use, lull=lull)
        return out

    @asynccontextmanager
    async def hold(self, amount: float) -> AsyncIterator[None]:
        """Reserve `amount` for requests that must be able to finish together (an escalation
        cascade's every tier, docs/cascade.md): the requests sent inside draw their own
        reservations from it, and what they did not need is released at the end. Raises
        `BudgetRefused` when it cannot fit; without a cap there is nothing to hold."""
        if self.ledger.cap is None or amount <= 0:
            yield
            return
        held = await self.ledger.acquire(amount)
        token = _HOLD.set(held)
        try:
            yield
        finally:
            _HOLD.reset(token)
            self.ledger.settle(held, 0.0)

    async def metered(self, name: str, declared: float | None, run: Callable[[], Awaitable[T]],
                      cost_of: Callable[[T], float]) -> T:
        """Run a custom judge like a model call, under this client's pool and ledger
        (`llm/custom_meter.py`)."""
        return await self.meter.metered(name, declared, run, cost_of)
