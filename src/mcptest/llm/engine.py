"""The judge engine: routing, cache and verdict parsing around one judge call.

`JudgeEngine.judge()` never raises for provider trouble: every request ends as a verdict, an
abstention, or a classified failure (`deferred`, `budget_skipped`, `judge_error`). The pool, the
budget and the retries are the run's one `ModelClient` (`self.client`), shared with the agent
loop and custom judges. litellm is imported only when a request is really about to be sent (or
when `start()` asks for it early). One request on the wire is llm/judge_call.py's.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

from mcptest.errors import BudgetRefused
from mcptest.llm.budget import BudgetLedger, lookup_price, prompt_token_bound
from mcptest.llm.call import Reply, response_format
from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest, JudgeStats, Projection
from mcptest.llm.cost_bound import PROJECTED_PROMPT_TOKENS, PlannedCall, project_cost
from mcptest.llm.judge_call import JudgeCall
from mcptest.llm.judge_reply import CutOff, JudgeVerdict, ParseFailure, read_verdict
from mcptest.llm.model_client import ModelClient, RequestSpend
from mcptest.llm.offline import NotRecorded, OfflineRoute
from mcptest.llm.openai_route import openai_response_format as fast_format
from mcptest.llm.prompt import build_messages, cache_messages, candidate_text, new_nonce, stricter
from mcptest.llm.provider_errors import container_hint
from mcptest.llm.providers import thinking_tokens
from mcptest.llm.retry import RetriesExhausted
from mcptest.llm.routing import Unroutable, route
from mcptest.llm.verdict_modes import mode_format
from mcptest.suite.models import JudgeDefaults

if TYPE_CHECKING:
    from collections.abc import Sequence

    from mcptest.llm.cache import CacheKey, VerdictCache
    from mcptest.llm.cassette import Cassettes


class JudgeEngine:
    """One per run: all judge calls share its client (pool, ledger, retries) and its cache."""

    def __init__(self, options: JudgeOptions, cassettes: Cassettes | None = None,
                 ledger: BudgetLedger | None = None) -> None:
        self.options = options
        self.client = ModelClient(options, cassettes, ledger)
        self._cache: VerdictCache | None = None
        if options.cache_dir:  # the cache's models are imported only when there is one
            from mcptest.llm.cache import VerdictCache

            self._cache = VerdictCache(options.cache_dir, secrets=options.secrets)
        self._lock = threading.Lock()
        self._sent = self._hits = self._deferred = self._errors = 0
        self._projection: Projection | None = None
        self._versions: dict[str, set[str]] = {}

    def start(self) -> None:
        """Begin importing litellm in the background (call it once the plan shows judges)."""
        self.client.start()

    async def judge(self, request: JudgeRequest) -> JudgeOutcome:
        try:
            return await self._judge(request)
        except Exception as e:  # our own bug or an unforeseen provider failure: never a pass
            self._count(errors=1)
            return JudgeOutcome(status="judge_error", model=request.model,
                                repetition=request.repetition, error_kind="transport",
                                message=self.redact(f"{type(e).__name__}: {e}")[:300])

    def versions(self) -> dict[str, list[str]]:
        """Per judge model, the versions its provider said served it (`Reply.version`): a
        calibration record keeps them and `--check-drift` says when they changed."""
        with self._lock:
            return {m: sorted(v) for m, v in sorted(self._versions.items())}

    def stats(self) -> JudgeStats:
        with self._lock:
            sent, hits, deferred, errors = self._sent, self._hits, self._deferred, self._errors
        ledger = self.client.ledger
        mine = ledger.since(self.client.mark)  # this run's share of a shared ledger
        p = self._projection
        return JudgeStats(projected_calls=p.calls if p else 0,
                          cost_bound_usd=p.cost_bound_usd if p else None,
                          calls_sent=sent, cache_hits=hits, spent_usd=mine.spent,
                          cap_usd=self.options.max_cost, reserved_usd=ledger.reserved,
                          budget_stopped=mine.refused > 0, budget_refused=mine.refused,
                          deferred=deferred, errors=errors, overruns=mine.overruns,
                          beyond_usd=mine.beyond)

    def project(self, models: Sequence[str | None], *, defaults: JudgeDefaults | None = None,
                prompt_tokens: int = PROJECTED_PROMPT_TOKENS) -> Projection:
        """Projected judge calls (one per entry: the model each call names, None = default) and
        an upper cost bound assuming `prompt_tokens` per prompt and `max_tokens` per answer."""
        d = defaults or self.options.defaults
        self._projection, _ = project_cost([PlannedCall(m, None, d) for m in models],
                                           self.options.env, self.client.model_cost(),
                                           prompt_tokens=prompt_tokens)
        return self._projection

    def worst_case(self, request: JudgeRequest) -> float:
        """The most one request may reserve before it is sent (`ModelClient.request`): its
        padded prompt and `max_tokens` at its price; 0 when it would cost nothing (deferred,
        unpriced). What an escalation cascade holds for each of its tiers (docs/cascade.md)."""
        defaults = request.defaults or self.options.defaults
        r = route(request.model, request.base_url, defaults, self.options.env)
        if isinstance(r, Unroutable):
            return 0.0
        settings = defaults or JudgeDefaults()
        table = self.client.model_cost()
        price = lookup_price(r.model, settings.pricing, table, r.price_name)
        if price is None:
            return 0.0
        messages = build_messages(request.rubric, request.candidate, new_nonce(),
                                  request.mode.contract() if request.mode else None,
                                  request.reference)
        return price.cost(prompt_token_bound(messages, None),
                          settings.max_tokens + thinking_tokens(r, table))

    def redact(self, text: str) -> str:
        """The text with every key of the environment, and anything key-shaped, masked."""
        return self.client.redact(text)

    def reachable(self, model: str | None, base_url: str | None,
                  defaults: JudgeDefaults | None) -> bool:
        """Whether a request to `model` could be sent; False: it is deferred at no cost (no key
        or gateway), so an early-stopped jury asks it anyway (docs/jury.md, "Early stop")."""
        r = route(model, base_url, defaults or self.options.defaults, self.options.env)
        return not isinstance(self.client.routed(r), Unroutable)

    # ----------------------------------------------------------------------------- internals

    def _count(self, *, sent: int = 0, hits: int = 0, deferred: int = 0, errors: int = 0) -> None:
        with self._lock:
            self._sent += sent
            self._hits += hits
            self._deferred += deferred
            self._errors += errors

    def _timeout(self, defaults: JudgeDefaults | None) -> float:
        if defaults is not None and "timeout" in defaults.model_fields_set:
            return float(defaults.timeout)
        return self.options.timeout

    async def _judge(self, req: JudgeRequest) -> JudgeOutcome:
        defaults = req.defaults or self.options.defaults
        settings = defaults or JudgeDefaults()
        r = self.client.routed(route(req.model, req.base_url, defaults, self.options.env))
        nonce = new_nonce()
        messages = build_messages(req.rubric, req.candidate, nonce,
                                  req.mode.contract() if req.mode else None, req.reference)
        key: CacheKey | None = None
        # With cassettes the cache is left alone: a cached verdict would leave its request out
        # of the recording, and a replay answers from the recording (docs/cassettes.md).
        if r.model is not None and self._cache is not None and self.client.cassettes is None:
            # Served even when the judge is unreachable now: a restored cache keeps a
            # key-free re-run of the same suite graded.
            from mcptest.llm.cache import CacheKey, verdict_sampling

            key = CacheKey(model=r.model, messages=cache_messages(messages, nonce),
                           rubric=req.rubric, candidate=candidate_text(req.candidate),
                           sampling=verdict_sampling(settings),
                           repetition=req.repetition,
                           reference=None if req.reference is None
                           else candidate_text(req.reference), endpoint=r.api_base)
            if self.options.cache_reads and (hit := self._cache.get(key)) is not None:
                self._count(hits=1)
                return self._from_verdict(hit, r.model, req.repetition, cached=True,
                                          latency=0.0)
        if isinstance(r, Unroutable):
            self._count(deferred=1)
            return JudgeOutcome(status="deferred", model=r.model, message=r.reason,
                                repetition=req.repetition)

        fast = self.client.fast(r)
        litellm = None if fast else await self.client.litellm()
        table = self.client.model_cost() if litellm is None else litellm.model_cost
        price = lookup_price(r.model, settings.pricing, table, r.price_name)
        offline = r.reason if isinstance(r, OfflineRoute) else None
        if price is None and self.options.max_cost is not None and offline is None:
            self._count(errors=1)
            return JudgeOutcome(
                status="judge_error", model=r.model, error_kind="unpriced",
                repetition=req.repetition,
                message=f"no known price for {r.model!r} with a cost cap set: add it to the "
                        "suite's judge.pricing (USD per million tokens)")
        tally = RequestSpend()
        fmt = (fast_format(r, table, structured=settings.structured_output) if litellm is None
               else response_format(litellm, r, structured=settings.structured_output))
        fmt = mode_format(fmt, req.mode)
        call = JudgeCall(r, price, settings, self._timeout(defaults), thinking_tokens(r, table),
                         nonce, offline)
        start = time.monotonic()
        try:
            reply = await self._send(litellm, call, messages, fmt, tally)
            try:
                verdict = read_verdict(reply, req.mode)
            except ParseFailure:
                retry_msgs = stricter(messages, reply.content or "")
                reply = await self._send(litellm, call, retry_msgs, fmt, tally)
                verdict = read_verdict(reply, req.mode)
        except NotRecorded as e:  # a replay without this request (docs/cassettes.md)
            if e.deferred:
                self._count(deferred=1)
                return JudgeOutcome(status="deferred", model=r.model, message=str(e),
                                    repetition=req.repetition)
            return self._failure(tally, r.model, req, "judge_error", str(e), "client", start)
        except BudgetRefused as e:
            return self._failure(tally, r.model, req, "budget_skipped", str(e), None, start)
        except RetriesExhausted as e:
            message = self.redact(str(e))
            if e.last.kind == "unreachable":  # "judge unreachable: URL (why) after n tries"
                message = "judge " + message + container_hint(r.endpoint)
            return self._failure(tally, r.model, req, "judge_error", message, e.last.kind,
                                 start)
        except CutOff as e:
            return self._failure(tally, r.model, req, "judge_error", call.cut_message(e),
                                 "truncated", start)
        except ParseFailure as e:
            return self._failure(tally, r.model, req, "judge_error",
                                 f"unparseable verdict after a stricter retry: {e}",
                                 "unparseable", start)
        finally:
            self._count(sent=tally.sent)
        latency = (time.monotonic() - start) * 1000
        if self._cache is not None and key is not None:
            self._cache.put(key, verdict)
        return self._from_verdict(verdict, r.model, req.repetition, cached=False,
                                  latency=latency, tally=tally)

    def _failure(self, tally: RequestSpend, model: str, req: JudgeRequest, status: Any,
                 message: str, kind: Any, start: float) -> JudgeOutcome:
        if status == "judge_error":
            self._count(errors=1)
        return JudgeOutcome(status=status, model=model, message=message, error_kind=kind,
                            cost_usd=tally.cost, cost_known=tally.cost_known,
                            latency_ms=(time.monotonic() - start) * 1000,
                            requests_sent=tally.sent, prompt_tokens=tally.prompt_tokens,
                            completion_tokens=tally.completion_tokens,
                            repetition=req.repetition)

    @staticmethod
    def _from_verdict(v: JudgeVerdict, model: str, repetition: int, *, cached: bool,
                      latency: float, tally: RequestSpend | None = None) -> JudgeOutcome:
        t = tally or RequestSpend()
        return JudgeOutcome(
            status="abstained" if v.abstain else "verdict", model=model,
            score=None if v.abstain else v.score, judge_pass=v.passed, reason=v.reason or None,
            evidence=v.evidence, cost_usd=t.cost, cost_known=t.cost_known, latency_ms=latency,
            cached=cached, requests_sent=t.sent, prompt_tokens=t.prompt_tokens,
            completion_tokens=t.completion_tokens, repetition=repetition, label=v.label,
            value=v.value)

    async def _send(self, litellm: Any | None, call: JudgeCall, messages: list[dict[str, str]],
                    fmt: dict[str, Any] | None, tally: RequestSpend) -> Reply:
        reply = await call.send(self.client, litellm, messages, fmt, tally,
                                count_tokens=self.options.max_cost is not None)
        if reply.version is not None:
            with self._lock:
                self._versions.setdefault(call.route.model, set()).add(reply.version)
        return reply
