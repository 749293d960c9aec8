"""The judge engine: routing, cache, budget, pool and retries around one judge call.

`JudgeEngine.judge()` never raises for provider trouble: every request ends as a verdict, an
abstention, or a classified failure (`deferred`, `budget_skipped`, `judge_error`). litellm is
imported only when a request is really about to be sent (or when `start()` asks for it early).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Sequence
from typing import Any

import anyio

from mcptest.llm.budget import BudgetLedger, BudgetRefused, Price, lookup_price, prompt_token_bound
from mcptest.llm.cache import CacheKey, VerdictCache
from mcptest.llm.call import Reply, count_prompt_tokens, response_format, send
from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest, JudgeStats, Projection
from mcptest.llm.imports import LitellmLoader
from mcptest.llm.models import Route, Unroutable, route
from mcptest.llm.pool import JudgePool
from mcptest.llm.price_table import price_table
from mcptest.llm.projection import PROJECTED_PROMPT_TOKENS, PlannedCall, bound
from mcptest.llm.prompt import build_messages, cache_messages, candidate_text, new_nonce, stricter
from mcptest.llm.retry import RetriesExhausted, RetryPolicy, classify, with_retries
from mcptest.llm.verdict import ParseFailure, Verdict, parse_verdict
from mcptest.report.redact import redact_text, secret_values
from mcptest.suite.models import JudgeDefaults


class _Call:
    """The mutable tally of one `judge()` call (requests sent, cost, tokens)."""

    def __init__(self) -> None:
        self.sent = 0
        self.cost = 0.0
        self.cost_known = True
        self.prompt_tokens = 0
        self.completion_tokens = 0


class JudgeEngine:
    """One per run: all judge calls share its pool, ledger and cache."""

    def __init__(self, options: JudgeOptions) -> None:
        self.options = options
        self._loader = LitellmLoader()
        self._pool = JudgePool(options.concurrency, options.per_model_concurrency)
        self._ledger = BudgetLedger(options.max_cost)
        self._cache = VerdictCache(options.cache_dir) if options.cache_dir else None
        self._policy = RetryPolicy(max_tries=options.max_tries,
                                   base_delay=options.retry_base_delay,
                                   max_total=options.retry_max_total)
        self._lock = threading.Lock()
        self._sent = self._hits = self._deferred = self._errors = 0
        self._projection: Projection | None = None
        self._secrets = secret_values(options.env)

    def start(self) -> None:
        """Begin importing litellm in the background (call it once the plan shows judges)."""
        self._loader.start()

    # ----------------------------------------------------------------------------- public API

    # The parts other model callers (the agent loop) share, so that one run has one pool, one
    # budget and one retry policy.
    @property
    def loader(self) -> LitellmLoader:
        return self._loader

    @property
    def pool(self) -> JudgePool:
        return self._pool

    @property
    def retry_policy(self) -> RetryPolicy:
        return self._policy

    @property
    def ledger(self) -> BudgetLedger:
        return self._ledger

    async def judge(self, request: JudgeRequest) -> JudgeOutcome:
        try:
            return await self._judge(request)
        except Exception as e:  # our own bug or an unforeseen provider failure: never a pass
            self._count(errors=1)
            return JudgeOutcome(status="judge_error", model=request.model,
                                repetition=request.repetition, error_kind="transport",
                                message=self.redact(f"{type(e).__name__}: {e}")[:300])

    def stats(self) -> JudgeStats:
        with self._lock:
            sent, hits, deferred, errors = self._sent, self._hits, self._deferred, self._errors
        refused = self._ledger.refused
        p = self._projection
        return JudgeStats(projected_calls=p.calls if p else 0,
                          cost_bound_usd=p.cost_bound_usd if p else None,
                          calls_sent=sent, cache_hits=hits, spent_usd=self._ledger.spent,
                          cap_usd=self.options.max_cost, reserved_usd=self._ledger.reserved,
                          budget_stopped=refused > 0, budget_refused=refused,
                          deferred=deferred, errors=errors, overruns=self._ledger.overruns)

    def project(self, models: Sequence[str | None], *, defaults: JudgeDefaults | None = None,
                prompt_tokens: int = PROJECTED_PROMPT_TOKENS) -> Projection:
        """Projected judge calls (one per entry: the model each call names, None = default) and
        an upper cost bound assuming `prompt_tokens` per prompt and `max_tokens` per answer."""
        d = defaults or self.options.defaults
        # litellm's table read as data: projecting never waits for the import
        model_cost = self._loader.get().model_cost if self._loader.loaded else price_table()
        self._projection, _ = bound([PlannedCall(m, None, d) for m in models], self.options.env,
                                    model_cost, prompt_tokens=prompt_tokens)
        return self._projection

    # ----------------------------------------------------------------------------- internals

    def _count(self, *, sent: int = 0, hits: int = 0, deferred: int = 0, errors: int = 0) -> None:
        with self._lock:
            self._sent += sent
            self._hits += hits
            self._deferred += deferred
            self._errors += errors

    def redact(self, text: str) -> str:
        """The text with every key of the environment, and anything key-shaped, masked."""
        return redact_text(text, self._secrets)

    def _timeout(self, defaults: JudgeDefaults | None) -> float:
        if defaults is not None and "timeout" in defaults.model_fields_set:
            return float(defaults.timeout)
        return self.options.timeout

    async def _judge(self, req: JudgeRequest) -> JudgeOutcome:
        defaults = req.defaults or self.options.defaults
        settings = defaults or JudgeDefaults()
        r = route(req.model, req.base_url, defaults, self.options.env)
        nonce = new_nonce()
        messages = build_messages(req.rubric, req.candidate, nonce)
        key: CacheKey | None = None
        if r.model is not None and self._cache is not None:
            # Served even when the judge is unreachable now: a restored cache keeps a
            # key-free re-run of the same suite graded.
            key = CacheKey(model=r.model, messages=cache_messages(messages, nonce),
                           rubric=req.rubric, candidate=candidate_text(req.candidate),
                           sampling={"temperature": settings.temperature,
                                     "max_tokens": settings.max_tokens},
                           repetition=req.repetition)
            if (hit := self._cache.get(key)) is not None:
                self._count(hits=1)
                return self._from_verdict(hit, r.model, req.repetition, cached=True,
                                          latency=0.0)
        if isinstance(r, Unroutable):
            self._count(deferred=1)
            return JudgeOutcome(status="deferred", model=r.model, message=r.reason,
                                repetition=req.repetition)

        litellm = (self._loader.get() if self._loader.loaded
                   else await anyio.to_thread.run_sync(self._loader.get))
        price = lookup_price(r.model, settings.pricing, litellm.model_cost)
        if price is None and self.options.max_cost is not None:
            self._count(errors=1)
            return JudgeOutcome(
                status="judge_error", model=r.model, error_kind="unpriced",
                repetition=req.repetition,
                message=f"no known price for {r.model!r} with a cost cap set: add it to the "
                        "suite's judge.pricing (USD per million tokens)")
        tally = _Call()
        fmt = response_format(litellm, r, structured=True)
        timeout = self._timeout(defaults)
        async with self._pool.slot(r.model):
            start = time.monotonic()
            try:
                reply = await self._send(litellm, r, messages, fmt, price, settings, timeout,
                                         tally)
                try:
                    verdict = parse_verdict(reply.content, reply.refusal)
                except ParseFailure:
                    retry_msgs = stricter(messages, reply.content or "")
                    reply = await self._send(litellm, r, retry_msgs, fmt, price, settings,
                                             timeout, tally)
                    verdict = parse_verdict(reply.content, reply.refusal)
            except BudgetRefused as e:
                return self._failure(tally, r.model, req, "budget_skipped", str(e), None, start)
            except RetriesExhausted as e:
                return self._failure(tally, r.model, req, "judge_error",
                                     self.redact(str(e)), e.last.kind, start)
            except ParseFailure as e:
                return self._failure(tally, r.model, req, "judge_error",
                                     f"unparseable verdict after a stricter retry: {e}",
                                     "unparseable", start)
            latency = (time.monotonic() - start) * 1000
        if self._cache is not None and key is not None:
            self._cache.put(key, verdict)
        return self._from_verdict(verdict, r.model, req.repetition, cached=False,
                                  latency=latency, tally=tally)

    def _failure(self, tally: _Call, model: str, req: JudgeRequest, status: Any, message: str,
                 kind: Any, start: float) -> JudgeOutcome:
        if status == "judge_error":
            self._count(errors=1)
        return JudgeOutcome(status=status, model=model, message=message, error_kind=kind,
                            cost_usd=tally.cost, cost_known=tally.cost_known,
                            latency_ms=(time.monotonic() - start) * 1000,
                            requests_sent=tally.sent, prompt_tokens=tally.prompt_tokens,
                            completion_tokens=tally.completion_tokens,
                            repetition=req.repetition)

    @staticmethod
    def _from_verdict(v: Verdict, model: str, repetition: int, *, cached: bool,
                      latency: float, tally: _Call | None = None) -> JudgeOutcome:
        t = tally or _Call()
        return JudgeOutcome(
            status="abstained" if v.abstain else "verdict", model=model,
            score=None if v.abstain else v.score, judge_pass=v.passed, reason=v.reason or None,
            evidence=v.evidence, cost_usd=t.cost, cost_known=t.cost_known, latency_ms=latency,
            cached=cached, requests_sent=t.sent, prompt_tokens=t.prompt_tokens,
            completion_tokens=t.completion_tokens, repetition=repetition)

    async def _send(self, litellm: Any, r: Route, messages: list[dict[str, str]],
                    fmt: dict[str, Any] | None, price: Price | None, settings: JudgeDefaults,
                    timeout: float, tally: _Call) -> Reply:
        """Send with our retries, reserving the worst case before every request."""
        capped = self.options.max_cost is not None
        state = {"fmt": fmt}

        async def attempt() -> Reply:
            worst = 0.0
            if price is not None:
                counted = count_prompt_tokens(litellm, r.model, messages) if capped else None
                worst = price.cost(prompt_token_bound(messages, counted), settings.max_tokens)
            reservation = self._ledger.reserve(worst)
            tally.sent += 1
            self._count(sent=1)
            try:
                reply = await send(litellm, r, messages, timeout=timeout,
                                   max_tokens=settings.max_tokens,
                                   temperature=settings.temperature, fmt=state["fmt"])
            except Exception as e:
                c = classify(e)
                # A timed-out or cut request may still be billed: count its worst case.
                charged = reservation.amount if c.kind in ("timeout", "transport") else 0.0
                self._ledger.settle(reservation, charged)
                tally.cost += charged
                if c.kind == "client" and state["fmt"] is not None:
                    state["fmt"] = None  # the endpoint may reject response_format: once more
                    return await attempt()
                raise
            if price is not None:
                actual = price.cost(reply.prompt_tokens, reply.completion_tokens)
            else:
                actual = reply.reported_cost or 0.0
                tally.cost_known = tally.cost_known and reply.reported_cost is not None
            self._ledger.settle(reservation, actual)
            tally.cost += actual
            tally.prompt_tokens += reply.prompt_tokens
            tally.completion_tokens += reply.completion_tokens
            return reply

        return await with_retries(attempt, self._policy, passthrough=(BudgetRefused,))
