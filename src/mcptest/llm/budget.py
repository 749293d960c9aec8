"""A reservation ledger that keeps model spending under a hard USD cap at any concurrency.

Before a request is sent its worst case (a padded prompt-token count × input price + `max_tokens`
× output price) is reserved; a reservation that would take reserved + spent past the cap is
refused and the request is never sent. When the answer arrives the reservation is replaced by
the actual cost. All bookkeeping happens under one lock with no awaits inside, so it is safe
from threads and tasks alike.

`acquire` is what the model client uses (docs/judges.md, "Budget"): a call that does not fit only
because others are in flight waits for them to settle (their actual cost is usually far below
their worst case), and is refused only when it cannot fit even then. The first refusal stops the
run's spending: from then on every new call is refused at once, even a cheaper one that would
still fit (calls already in flight finish and count), so "budget stopped the run" is true.

The invariant holds whatever a call reports. A report above its reservation (a custom judge
past its declaration, a provider counting more tokens than it was allowed) is counted as far as
the cap has room; what does not fit is kept apart as `beyond` (the reporter's error, which the
run names) and stops the run's spending. One ledger serves a whole run: its repetitions, the
files of a pytest session, and (with its slice of the cap) a shard (docs/scale.md). `mark` and
`since` give one part's share of it.
"""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import anyio
from pydantic import BaseModel, ConfigDict

from mcptest.errors import BudgetRefused

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models import Pricing

__all__ = ["BudgetLedger", "BudgetRefused", "LedgerMark", "Price", "Reservation", "lookup_price",
           "prompt_token_bound"]

# Padding on the counted prompt: tokenizers differ between providers; the bound must hold.
PROMPT_MARGIN = 1.25
PER_MESSAGE_TOKENS = 8
FIXED_TOKENS = 32


class Price(BaseModel):
    """USD per token."""

    model_config = ConfigDict(frozen=True)

    input: float
    output: float
    source: str = "litellm"

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        return prompt_tokens * self.input + completion_tokens * self.output


def lookup_price(model: str, pricing: Mapping[str, Pricing], model_cost: Mapping[str, Any] | None,
                 routed: str | None = None) -> Price | None:
    """The suite's `judge.pricing` first, then litellm's table under the name the request is
    routed by (`routed`: `gemini/gemini-2.5-pro` for a bare Gemini name), the model's own name,
    and either without a `provider/` prefix. None when nobody knows: never assume free."""
    if model in pricing:
        p = pricing[model]
        return Price(input=p.input / 1e6, output=p.output / 1e6, source="suite")
    if model_cost is None:
        return None
    names = [routed, model] if routed and routed != model else [model]
    names += [n.split("/", 1)[1] for n in names if n and "/" in n]
    for name in names:
        entry = model_cost.get(name) if name else None
        if not isinstance(entry, dict):
            continue
        i, o = entry.get("input_cost_per_token"), entry.get("output_cost_per_token")
        if isinstance(i, int | float) and isinstance(o, int | float):
            return Price(input=float(i), output=float(o))
    return None


def prompt_token_bound(messages: list[dict[str, str]], counted: int | None) -> int:
    """Padded upper estimate of prompt tokens (counted by litellm when possible, else bytes/3)."""
    text_bytes = sum(len(m["content"].encode()) for m in messages)
    base = max(counted or 0, math.ceil(text_bytes / 3))
    return math.ceil(base * PROMPT_MARGIN) + PER_MESSAGE_TOKENS * len(messages) + FIXED_TOKENS


@dataclass
class Reservation:
    """Money held for a call before it is sent, settled by what the call really cost."""

    amount: float
    open: bool = True
    held: Reservation | None = None
    """The hold it was drawn from: what it does not spend goes back there (`draw`)."""
    lent: float = 0.0
    """A hold's: what its open draws hold now (settling them frees no room in the ledger)."""


@dataclass(frozen=True)
class LedgerMark:
    """Where the ledger stood when one part of the run (a repetition, a file) began."""

    spent: float = 0.0
    refused: int = 0
    overruns: int = 0
    beyond: float = 0.0


class BudgetLedger:
    """Spent + reserved never exceeds `cap` (None = no cap, still counts spending)."""

    def __init__(self, cap: float | None) -> None:
        self.cap = cap
        self._lock = threading.Lock()
        self._spent = 0.0
        self._reserved = 0.0
        self._refused = 0
        self._overruns = 0
        self._beyond = 0.0
        self._largest: dict[str, float] = {}
        """The most each custom judge reported so far, over the whole run (`largest`)."""
        self._settled: anyio.Event | None = None
        self._stop: BudgetRefused | None = None

    def _refuse(self, amount: float) -> BudgetRefused:
        """Count a refusal for good and remember the first (caller holds the lock)."""
        assert self.cap is not None
        self._refused += 1
        if self._stop is not None:
            return BudgetRefused(amount, self._spent, self._reserved, self.cap, stopped=True)
        self._stop = BudgetRefused(amount, self._spent, self._reserved, self.cap)
        return self._stop

    @property
    def stopped(self) -> bool:
        """A call was refused: no new call will be let through."""
        with self._lock:
            return self._stop is not None

    def reserve(self, amount: float) -> Reservation:
        """Hold `amount` for one request now, or raise `BudgetRefused` (no waiting)."""
        with self._lock:
            if self._stop is not None:
                raise self._refuse(amount)
            if self.cap is not None and self._spent + self._reserved + amount > self.cap:
                self._refused += 1  # not for good: calls in flight may still free room
                raise BudgetRefused(amount, self._spent, self._reserved, self.cap)
            self._reserved += amount
            return Reservation(amount)

    async def acquire(self, amount: float, within: Reservation | None = None) -> Reservation:
        """Hold `amount`, waiting while calls in flight may still free room; raise
        `BudgetRefused` when it cannot fit even after they settle. `within`: the caller's own
        hold, whose draws return to it and so never free room to wait for."""
        while True:
            with self._lock:
                if self._stop is not None:
                    raise self._refuse(amount)
                if self.cap is None or self._spent + self._reserved + amount <= self.cap:
                    self._reserved += amount
                    return Reservation(amount)
                own = within.amount + within.lent if within is not None and within.open else 0.0
                if self._reserved - own <= 1e-15:  # nothing else in flight: it will never fit
                    raise self._refuse(amount)
                if self._settled is None:
                    self._settled = anyio.Event()
                settled = self._settled
            await settled.wait()

    def take(self, hold: Reservation, amount: float) -> float:
        """Move up to `amount` out of an open hold for one request (what a cascade reserved for
        its every tier, docs/cascade.md); the total reserved does not change. A hold was
        reserved before the run's spending stopped, so it is drawn from even after."""
        with self._lock:
            if not hold.open:
                return 0.0
            taken = min(amount, hold.amount)
            hold.amount -= taken
            hold.lent += taken
            return taken

    async def draw(self, hold: Reservation, amount: float) -> Reservation:
        """A reservation of `amount` paid from `hold` as far as it goes, the rest acquired;
        settling it returns what it did not spend to the hold."""
        taken = self.take(hold, amount)
        if taken < amount:
            try:
                await self.acquire(amount - taken, within=hold)
            except BudgetRefused:
                with self._lock:
                    hold.amount += taken
                    hold.lent -= taken
                raise
            with self._lock:
                hold.lent += amount - taken
        return Reservation(amount, held=hold)

    def settle(self, r: Reservation, actual: float) -> None:
        """Replace a reservation by what the request really cost (0 when it failed unbilled)."""
        with self._lock:
            if not r.open:
                return
            r.open = False
            self._reserved -= r.amount
            if actual > r.amount + 1e-15:
                self._overruns += 1
                if self.cap is not None:  # only the room left may count against the cap
                    room = max(self.cap - self._spent - self._reserved, 0.0)
                    if actual > room:
                        self._beyond += actual - room
                        actual = room
                        if self._stop is None:
                            self._stop = BudgetRefused(0.0, self._spent, self._reserved,
                                                       self.cap)
            self._spent += actual
            back = r.amount - actual
            if r.held is not None:
                r.held.lent = max(0.0, r.held.lent - r.amount)
            if r.held is not None and r.held.open and back > 0:  # still held for later tiers
                r.held.amount += back
                self._reserved += back
            settled, self._settled = self._settled, None
        if settled is not None:
            settled.set()

    def charge(self, actual: float) -> None:
        """Record spending nobody reserved first (a custom judge that declared no cost)."""
        self.settle(Reservation(0.0), actual)

    @property
    def spent(self) -> float:
        with self._lock:
            return self._spent

    @property
    def reserved(self) -> float:
        with self._lock:
            return max(0.0, self._reserved)

    @property
    def refused(self) -> int:
        with self._lock:
            return self._refused

    @property
    def overruns(self) -> int:
        """Requests whose actual cost exceeded their reservation (should stay 0)."""
        with self._lock:
            return self._overruns

    @property
    def beyond(self) -> float:
        """USD reported past the cap's room (not counted as spent: the reporter's error)."""
        with self._lock:
            return self._beyond

    def largest(self, name: str, reported: float | None = None) -> float:
        """The most the custom judge `name` has reported in this run, after counting
        `reported` (what it reserves next: a report is the only bound it gave)."""
        with self._lock:
            most = max(self._largest.get(name, 0.0), reported or 0.0)
            self._largest[name] = most
            return most

    def mark(self) -> LedgerMark:
        """Where the ledger stands now (`since` measures from it)."""
        with self._lock:
            return LedgerMark(self._spent, self._refused, self._overruns, self._beyond)

    def since(self, mark: LedgerMark) -> LedgerMark:
        """What happened after `mark`: one repetition's or one file's share of the run."""
        with self._lock:
            return LedgerMark(self._spent - mark.spent, self._refused - mark.refused,
                              self._overruns - mark.overruns, self._beyond - mark.beyond)
