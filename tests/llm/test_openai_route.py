"""The fast route to OpenAI itself (docs/judges.md, "Where the request goes"): what it sends.

OpenAI's models with `OPENAI_API_KEY` skip litellm; `OPENAI_BASE_URL` points them at the loopback
judge server here, the way litellm honours it too.
"""

from __future__ import annotations

import gc
import warnings
from pathlib import Path

import anyio
import pytest
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.cli.main import main
from mcptest.llm.contracts import JudgeOptions, JudgeOutcome, JudgeRequest
from mcptest.llm.engine import JudgeEngine


def _judge(js: JudgeServer, model: str) -> JudgeOutcome:
    env = {"OPENAI_API_KEY": "sk-test-openai", "OPENAI_BASE_URL": js.base_url}
    engine = JudgeEngine(JudgeOptions(env=env, retry_base_delay=0.01))
    return anyio.run(engine.judge, JudgeRequest(rubric="r", candidate="c", model=model))


def test_openai_models_get_their_own_name_a_schema_and_max_completion_tokens() -> None:
    with JudgeServer() as js:
        js.script("gpt-4o-mini", Verdict(score=0.6))
        o = _judge(js, "openai/gpt-4o-mini")
        assert o.status == "verdict" and o.score == 0.6
        body = js.requests("gpt-4o-mini")[0]
        assert body["max_completion_tokens"] == 1024 and "max_tokens" not in body
        assert body["temperature"] == 0.0
        assert body["response_format"]["type"] == "json_schema"  # the price table says so
        assert js.request_headers()[0]["authorization"] == "Bearer sk-test-openai"


def test_reasoning_models_get_no_temperature() -> None:
    with JudgeServer() as js:
        js.script("o3-mini", Verdict(score=0.9))
        assert _judge(js, "o3-mini").status == "verdict"
        assert "temperature" not in js.requests("o3-mini")[0]


def test_a_rate_limit_is_retried_after_its_retry_after() -> None:
    with JudgeServer() as js:
        js.script("gpt-4o-mini", [Fault.rate_limit(retry_after=0.1), Verdict(score=0.7)])
        o = _judge(js, "gpt-4o-mini")
        assert o.status == "verdict" and js.count("gpt-4o-mini") == 2


def test_calls_reuse_one_kept_alive_connection_per_call_in_flight() -> None:
    """`llm/connections.py`: 30 calls at concurrency 4 come over at most 4 connections."""
    with JudgeServer(route="fast") as js:
        js.script("gw-judge", Verdict(score=0.8, latency=0.02))
        engine = JudgeEngine(JudgeOptions(env=js.gateway_env(), concurrency=4))

        async def judge_all() -> None:
            async with anyio.create_task_group() as tg:
                for i in range(30):
                    tg.start_soon(engine.judge, JudgeRequest(rubric="r", candidate=f"c{i}",
                                                             model="gw-judge"))

        anyio.run(judge_all)
        assert js.count("gw-judge") == 30
        assert 1 < js.peak_in_flight() <= 4
        assert 1 < js.connections() <= 4


def test_an_in_process_run_closes_its_judge_connections(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """The Action runs the CLI in its own process: the run closes its kept-alive judge
    connections itself rather than leaving open sockets to the garbage collector."""
    suite = tmp_path / "evals.yml"
    suite.write_text("evals:\n" + "".join(
        f"  - {{name: e{i}, prompt: p, response: answer {i}, rubric: r, judge: {{model: gw-judge}}}}\n"
        for i in range(3)), encoding="utf-8")
    with JudgeServer(route="fast") as js:
        js.script("gw-judge", Verdict(score=0.9))
        for key, value in js.gateway_env().items():
            monkeypatch.setenv(key, value)
        gc.collect()  # what earlier tests left is not this run's
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always", ResourceWarning)
            code = main(["eval", "--config", str(suite), "--no-cache", "--reporter", "json",
                         "--output", str(tmp_path / "report.json")])
            gc.collect()
    assert code == 0 and js.count("gw-judge") == 3
    assert [str(w.message) for w in seen if issubclass(w.category, ResourceWarning)] == []


def test_the_request_names_its_client_its_host_and_asks_for_no_compression() -> None:
    """What httpx added by itself and the route now sends: a User-Agent (gateways behind a
    firewall may refuse a request without one), the Host as written, and no compression
    (which the route would not decode)."""
    with JudgeServer(route="fast") as js:
        js.script("gw-judge", Verdict(score=0.8))
        engine = JudgeEngine(JudgeOptions(env=js.gateway_env()))
        o = anyio.run(engine.judge, JudgeRequest(rubric="r", candidate="c", model="gw-judge"))
        headers = js.request_headers()[0]
        host = js.base_url.split("/")[2]
    assert o.status == "verdict"
    assert headers["user-agent"].startswith("mcptest/")
    assert headers["accept-encoding"] == "identity" and headers["host"] == host


def test_a_base_url_with_a_space_is_rejected_once_not_retried() -> None:
    env = {"MCPTEST_JUDGE_BASE_URL": "http://127.0.0.1:9/v 1",
           "MCPTEST_JUDGE_API_KEY": "sk-test-gateway-key-0123"}
    engine = JudgeEngine(JudgeOptions(env=env, retry_base_delay=0.01))
    o = anyio.run(engine.judge, JudgeRequest(rubric="r", candidate="c", model="gw-judge"))
    assert o.status == "judge_error" and o.error_kind == "client"
    assert "base URL" in (o.message or "") and "after 1 try" in (o.message or "")
