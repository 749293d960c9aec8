"""Each provider family's faults, in its own wire format, through the judge engine: a cut answer
is never graded, a refusal abstains, retry hints are read where each provider puts them, an
overload keeps the provider's status and words, and only a rejected structured-output format is
re-sent weaker. OpenAI runs over both routes (the fast one and litellm)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from support.judge_once import judge_once as judge
from support.judge_server import Fault, Verdict
from support.providers import FAMILIES, MistralStandIn, StandIn

from mcptest.llm.call import send
from mcptest.llm.contracts import JudgeOptions
from mcptest.llm.model_client import ModelClient, RequestSpend
from mcptest.llm.retry import Classified, RetriesExhausted
from mcptest.llm.routing import Route, route

pytestmark = pytest.mark.slow  # loopback servers and the litellm import

MODEL = {"anthropic": "claude-haiku-4-5", "openai": "gpt-4o", "gemini": "gemini-2.5-flash",
         "mistral": "mistral-small-latest"}
CASES = [("anthropic", ""), ("openai", "auto"), ("openai", "litellm"), ("gemini", ""),
         ("mistral", "")]
REFUSAL = {"anthropic": "stop_reason refusal", "openai": "the refusal field",
           "gemini": "finishReason SAFETY", "mistral": "refusal text"}


@pytest.fixture(params=CASES, ids=[f"{f}-{r}" if r else f for f, r in CASES])
def family(request: pytest.FixtureRequest) -> Iterator[tuple[StandIn, dict[str, str], str]]:
    name, via = request.param
    with FAMILIES[name]() as s:
        env = {**s.env(), **({"MCPTEST_LLM_ROUTE": via} if via else {})}
        yield s, env, name


@pytest.mark.anyio
@pytest.mark.parametrize("structured", [True, False], ids=["structured", "text"])
async def test_a_cut_answer_is_a_judge_error_never_its_draft(
        family: tuple[StandIn, dict[str, str], str], structured: bool) -> None:
    s, env, name = family
    s.script(MODEL[name], Fault.truncated())  # quotes a complete draft verdict of 1.0
    o = await judge(env, MODEL[name], structured=structured)
    assert (o.status, o.error_kind, o.score) == ("judge_error", "truncated", None)
    assert o.message is not None and o.message.startswith("answer cut at max_tokens (1024")
    assert o.requests_sent == 1 and o.cost_usd > 0  # one billed answer, not re-asked
    assert s.problems == []


@pytest.mark.anyio
async def test_mistral_model_length_is_a_cut_too() -> None:
    with MistralStandIn() as s:
        s.cut_reason = "model_length"  # litellm alone reads it as `stop`
        s.script("mistral-small-latest", Fault.truncated())
        o = await judge(s.env(), "mistral-small-latest", structured=False)
    assert o.error_kind == "truncated" and "model_length" in (o.message or "")


@pytest.mark.anyio
async def test_a_refusal_abstains_whatever_text_it_carries(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    s, env, name = family
    text = ("I'm sorry, but I can't help with that." if name == "mistral"
            else '{"score": 1.0, "pass": true, "reason": "partial"}')
    s.script(MODEL[name], Fault.refusal(text, field=name != "mistral"))
    o = await judge(env, MODEL[name])
    assert (o.status, o.score) == ("abstained", None), REFUSAL[name]
    assert o.reason is not None and o.reason.startswith("refused")
    assert o.requests_sent == 1  # a refusal is an answer: never re-asked
    assert s.problems == []


async def first_failure(env: dict[str, str], model: str) -> Classified:
    """How one request fails, read by our client (one try, no waiting)."""
    client = ModelClient(JudgeOptions(env=env, max_tries=1))
    r = route(model, None, None, env)
    assert isinstance(r, Route)
    messages = [{"role": "user", "content": "grade this"}]
    litellm = None if client.fast(r) else await client.litellm()

    async def once() -> Any:
        if litellm is None:
            return await client.openai.send(r, messages, timeout=10, max_tokens=64,
                                            temperature=0.0, fmt=None)
        return await send(litellm, r, messages, timeout=10, max_tokens=64, temperature=0.0,
                          fmt=None)

    with pytest.raises(RetriesExhausted) as e:
        await client.request(r.model, once, price=None, prompt_tokens=16, max_tokens=64,
                             tally=RequestSpend())
    await client.aclose()
    return e.value.last


@pytest.mark.anyio
async def test_the_retry_hint_is_read_where_each_provider_puts_it(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    """Anthropic and OpenAI send `retry-after` (OpenAI also `x-ratelimit-reset-requests`),
    Gemini only `RetryInfo.retryDelay` in the body; Mistral documents none."""
    s, env, name = family
    s.script(MODEL[name], Fault.rate_limit(retry_after=7))
    last = await first_failure(env, MODEL[name])
    assert last.kind == "rate_limit" and last.message.startswith("rate limited (429")
    assert last.retry_after == (None if name == "mistral" else 7.0)


@pytest.mark.anyio
async def test_a_rate_limit_is_waited_out_and_then_graded(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    s, env, name = family
    s.script(MODEL[name], [Fault.rate_limit(retry_after=0.05), Verdict(score=0.4)])
    o = await judge(env, MODEL[name])
    assert (o.status, o.score, o.requests_sent) == ("verdict", 0.4, 2)


@pytest.mark.anyio
async def test_an_overload_keeps_the_provider_status_and_words(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    s, env, name = family
    s.script(MODEL[name], Fault.overloaded())
    o = await judge(env, MODEL[name])
    status, words = {"anthropic": ("529 overloaded_error", "Overloaded"),
                     "openai": ("503", "The server is overloaded or not ready yet."),
                     "gemini": ("503 UNAVAILABLE", "The model is overloaded."),
                     "mistral": ("503", "Service unavailable.")}[name]
    assert o.status == "judge_error", o
    assert (o.message or "").startswith(f"server error ({status}") and words in (o.message or "")
    assert (o.message or "").endswith("after 3 tries") and o.requests_sent == 3
    assert o.cost_usd == 0.0


@pytest.mark.anyio
async def test_a_plain_rejection_is_sent_once(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    s, env, name = family
    s.script(MODEL[name], Fault.rejected("prompt is too long: 250000 tokens > 200000 maximum"))
    o = await judge(env, MODEL[name])
    assert o.status == "judge_error" and o.requests_sent == 1 == s.count()
    assert "(400" in (o.message or "") and "prompt is too long" in (o.message or "")
    assert (o.message or "").endswith("after 1 try")


WEAKER = {  # the format each family is asked for after it refused the JSON schema
    "anthropic": lambda b: "output_format" not in b,
    "openai": lambda b: b.get("response_format") == {"type": "json_object"},
    "gemini": lambda b: "response_json_schema" not in b["generationConfig"]
    and b["generationConfig"]["response_mime_type"] == "application/json",
    "mistral": lambda b: b.get("response_format") == {"type": "json_object"},
}


@pytest.mark.anyio
async def test_a_rejected_schema_is_re_sent_with_a_weaker_format(
        family: tuple[StandIn, dict[str, str], str]) -> None:
    s, env, name = family
    s.script(MODEL[name], [Fault.rejected("Invalid schema for response_format 'verdict'"),
                           Verdict(score=0.6)])
    o = await judge(env, MODEL[name])
    assert (o.status, o.score, o.requests_sent) == ("verdict", 0.6, 2)
    first, second = s.requests()
    assert not WEAKER[name](first) and WEAKER[name](second)


@pytest.mark.anyio
@pytest.mark.parametrize("via", ["auto", "litellm"])
async def test_a_reasoning_model_gets_room_to_think(via: str) -> None:
    with FAMILIES["openai"]() as s:
        s.script("o3-mini", Verdict(score=0.7, thinking_tokens=1800))
        o = await judge({**s.env(), "MCPTEST_LLM_ROUTE": via}, "o3-mini")
        body = s.requests()[0]
        assert s.problems == []
    assert (o.status, o.score) == ("verdict", 0.7)
    assert body["max_completion_tokens"] == 1024 + 2048 and "temperature" not in body
    assert body["reasoning_effort"] == "low"


@pytest.mark.anyio
async def test_gemini_thinks_within_a_budget_the_verdict_fits_after() -> None:
    """Gemini 2.5 thinks by default (up to 8192 tokens), counted against maxOutputTokens: with
    1024 and no budget its thinking left no room for the verdict."""
    with FAMILIES["gemini"]() as s:
        s.script("gemini-2.5-pro", Verdict(score=0.65, thinking_tokens=5000))
        o = await judge(s.env(), "gemini-2.5-pro")
        config = s.requests()[0]["generationConfig"]
        assert s.problems == []
    assert (o.status, o.score) == ("verdict", 0.65)
    assert config["thinkingConfig"]["thinkingBudget"] == 2048
    assert config["max_output_tokens"] == 1024 + 2048
    assert o.completion_tokens > 2048  # the thinking is billed


@pytest.mark.anyio
async def test_an_unknown_price_stays_unknown(family: tuple[StandIn, dict[str, str], str]) -> None:
    """A model litellm's table does not know: its cost is unknown, never a known $0 (litellm's
    own `response_cost` said 0.0 for an unknown Anthropic model)."""
    s, env, name = family
    model = {"anthropic": "claude-zeta-9", "openai": "gpt-9-preview", "gemini": "gemini-9-ultra",
             "mistral": "mistral-zeta-latest"}[name]
    s.script(model, Verdict(score=0.5))
    o = await judge(env, model)
    assert (o.status, o.cost_usd, o.cost_known) == ("verdict", 0.0, False)
