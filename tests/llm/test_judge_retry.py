"""Our retries: 429 with Retry-After, persistent 5xx, timeouts, dropped connections."""

from __future__ import annotations

import random
from typing import Any

import pytest
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.llm.contracts import JudgeOptions, JudgeRequest
from mcptest.llm.engine import JudgeEngine
from mcptest.llm.retry import RetryPolicy, backoff

pytestmark = pytest.mark.anyio


def engine(js: JudgeServer, **kw: Any) -> JudgeEngine:
    kw.setdefault("env", js.gateway_env())
    kw.setdefault("retry_base_delay", 0.01)
    return JudgeEngine(JudgeOptions(**kw))


async def test_rate_limit_then_success(judge_server: JudgeServer) -> None:
    judge_server.script("j", [Fault.rate_limit(retry_after=0.2), Verdict(score=0.9)])
    o = await engine(judge_server).judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert o.status == "verdict" and o.score == 0.9
    assert judge_server.count("j") == 2 and o.requests_sent == 2


async def test_persistent_500_is_a_judge_error_after_four_tries(
        judge_server: JudgeServer) -> None:
    judge_server.script("j", Fault.server_error(500))
    e = engine(judge_server)
    o = await e.judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert o.status == "judge_error" and o.error_kind == "server" and o.score is None
    assert judge_server.count("j") == 4 and "4 tries" in (o.message or "")


async def test_timeout_is_a_judge_error(judge_server: JudgeServer) -> None:
    judge_server.script("j", Fault.slow(3.0))
    e = engine(judge_server, timeout=0.3, max_tries=2)
    o = await e.judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert o.status == "judge_error" and o.error_kind == "timeout"
    assert judge_server.count("j") == 2


async def test_dropped_connection_is_retried(judge_server: JudgeServer) -> None:
    judge_server.script("j", [Fault.disconnect(), Verdict(score=0.4)])
    o = await engine(judge_server).judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert o.status == "verdict" and o.score == 0.4 and judge_server.count("j") == 2


async def test_client_errors_are_not_retried(judge_server: JudgeServer) -> None:
    o = await engine(judge_server).judge(JudgeRequest(rubric="r", candidate="c", model="nobody"))
    # 404 for an unscripted model: not about the format, so not re-sent without it
    assert o.status == "judge_error" and o.error_kind == "client"
    assert judge_server.count("nobody") == 1
    assert (o.message or "").startswith("request rejected (404")
    assert "model 'nobody' is not scripted" in (o.message or "")
    assert (o.message or "").endswith("after 1 try")


async def test_an_unsupported_format_is_re_sent_without_it(judge_server: JudgeServer) -> None:
    """A server that knows no `response_format` (422, pydantic's words with the field's
    path) gets the request again without it."""
    judge_server.script("j", [Fault.rejected("body.response_format: Extra inputs are not "
                                             "permitted", status=422), Verdict(score=0.5)])
    o = await engine(judge_server).judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert (o.status, o.score, o.requests_sent) == ("verdict", 0.5, 2)
    assert [b.get("response_format") for b in judge_server.requests("j")] == [
        {"type": "json_object"}, None]


async def test_total_time_bound_stops_retrying(judge_server: JudgeServer) -> None:
    judge_server.script("j", Fault.rate_limit(retry_after=30))
    e = engine(judge_server, retry_max_total=5.0)
    o = await e.judge(JudgeRequest(rubric="r", candidate="c", model="j"))
    assert o.status == "judge_error" and o.error_kind == "rate_limit"
    assert judge_server.count("j") == 1  # waiting 30 s would cross the 5 s bound


def test_backoff_grows_and_is_capped() -> None:
    p = RetryPolicy(base_delay=1.0, max_delay=5.0)
    rng = random.Random(7)
    delays = [backoff(n, p, rng) for n in (1, 2, 3, 10)]
    assert 0.5 <= delays[0] <= 1.5 and 1.0 <= delays[1] <= 3.0 and 2.0 <= delays[2] <= 6.0
    assert delays[3] <= 7.5
