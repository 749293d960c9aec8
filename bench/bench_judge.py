"""Judge engine throughput: llm-judge and llm-jury gradings against a 200 ms loopback judge.

Run: `.venv/bin/python bench/bench_judge.py [--only NAME] [--concurrency N]`. The judge server
runs in a child process so peak RSS and CPU time are ours alone. Cases (ideal = calls /
concurrency × latency): 500 judge gradings (5.0 s), 200 answers (2.0 s), 100 three-juror juries
(300 calls, 3.0 s). Reference points from the project's targets: promptfoo 6.1 s / 221 MiB,
DeepEval 5.1 s for the jury case.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import resource
import sys
import time
from pathlib import Path
from typing import Any

import anyio

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

LATENCY = 0.2
MODELS = ("judge-a", "judge-b", "judge-c")


def _serve(q: Any, stop: Any) -> None:
    from support.judge_server import JudgeServer, Verdict

    with JudgeServer() as js:
        for m in MODELS:
            js.script(m, Verdict(score=0.8, latency=LATENCY))
        q.put(js.base_url)
        stop.wait()
        q.put(js.count())


def _rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def _case(name: str, n: int, jurors: int, concurrency: int, base_url: str) -> dict[str, Any]:
    from mcptest.grade.llm_matchers import LlmContext, judge_assertion, jury_assertion
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion
    from mcptest.report.models import Location
    from mcptest.suite.models import Assertion

    engine = JudgeEngine(JudgeOptions(concurrency=concurrency, env={
        "MCPTEST_JUDGE_BASE_URL": base_url, "MCPTEST_JUDGE_API_KEY": "bench"}))
    if jurors == 1:
        matcher: dict[str, Any] = {"llm-judge": {"rubric": "Is it a deployment note?",
                                                 "model": MODELS[0]}}
    else:
        matcher = {"llm-jury": {"rubric": "Is it a deployment note?",
                                "jurors": [{"model": m} for m in MODELS[:jurors]]}}
    assertion = Assertion.model_validate({"target": "result", "matcher": matcher})
    ctx = LlmContext()
    grade = judge_assertion if jurors == 1 else jury_assertion
    statuses: dict[str, int] = {}

    async def one(i: int) -> None:
        planned = PlannedAssertion(i, assertion, Location(file="bench.yml", line=1))
        r = await grade(planned, f"deployed api v1.{i} to production", ctx, engine)
        statuses[r.status] = statuses.get(r.status, 0) + 1

    cpu0 = time.process_time()
    t0 = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(n):
            tg.start_soon(one, i)
    wall = time.perf_counter() - t0
    cpu = time.process_time() - cpu0
    calls = n * jurors
    ideal = calls / concurrency * LATENCY
    return {"case": name, "calls": calls, "wall_s": wall, "ideal_s": ideal,
            "ratio": wall / ideal, "cpu_ms_per_call": cpu / calls * 1000,
            "overhead_ms_per_assertion": (wall - ideal) / n * 1000,
            "statuses": statuses, "sent": engine.stats().calls_sent}


async def _raw_floor(n: int, concurrency: int, base_url: str) -> dict[str, Any]:
    """The same calls through bare `litellm.acompletion`: the floor our engine sits on."""
    from mcptest.llm.imports import LitellmLoader
    from mcptest.llm.prompt import build_messages, new_nonce
    from mcptest.llm.routing import GATEWAY_PREFIX

    litellm = LitellmLoader().get()
    limiter = anyio.CapacityLimiter(concurrency)

    async def one(i: int) -> None:
        messages = build_messages("Is it a deployment note?", f"deployed api v1.{i}", new_nonce())
        async with limiter:
            await litellm.acompletion(model=GATEWAY_PREFIX + MODELS[0], messages=messages,
                                      api_base=base_url, api_key="bench", num_retries=0,
                                      timeout=60, max_tokens=1024, temperature=0.0,
                                      response_format={"type": "json_object"})

    cpu0, t0 = time.process_time(), time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(n):
            tg.start_soon(one, i)
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    ideal = n / concurrency * LATENCY
    return {"case": f"raw litellm x{n}", "calls": n, "wall_s": wall, "ideal_s": ideal,
            "ratio": wall / ideal, "cpu_ms_per_call": cpu / n * 1000,
            "overhead_ms_per_assertion": (wall - ideal) / n * 1000, "statuses": {}, "sent": n}


async def _http_floor(n: int, concurrency: int, base_url: str) -> dict[str, Any]:
    """The same number of requests through one plain httpx client: the harness's own floor
    (loopback server, scripted latency), below which no judge client can go."""
    import httpx

    limiter = anyio.CapacityLimiter(concurrency)
    body = {"model": MODELS[0], "messages": [{"role": "user", "content": "floor"}]}
    async with httpx.AsyncClient(timeout=60, limits=httpx.Limits(max_connections=64)) as client:

        async def one(i: int) -> None:
            async with limiter:
                r = await client.post(f"{base_url}/chat/completions", json=body,
                                      headers={"Authorization": "Bearer bench"})
                r.raise_for_status()

        cpu0, t0 = time.process_time(), time.perf_counter()
        async with anyio.create_task_group() as tg:
            for i in range(n):
                tg.start_soon(one, i)
        wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    ideal = n / concurrency * LATENCY
    return {"case": f"httpx floor x{n}", "calls": n, "wall_s": wall, "ideal_s": ideal,
            "ratio": wall / ideal, "cpu_ms_per_call": cpu / n * 1000,
            "overhead_ms_per_assertion": (wall - ideal) / n * 1000, "statuses": {}, "sent": n}


async def _all(args: argparse.Namespace, base_url: str) -> list[dict[str, Any]]:
    from mcptest.grade.llm_matchers import LlmContext, judge_assertion  # noqa: F401 - import cost
    from mcptest.llm.imports import LitellmLoader

    t0 = time.perf_counter()
    LitellmLoader().get()
    print(f"litellm import: {time.perf_counter() - t0:.2f} s", flush=True)
    # warm-up: first litellm call builds clients and caches
    await _case("warm-up", 20, 1, args.concurrency, base_url)
    cases = [("500 judges", 500, 1), ("200 answers", 200, 1), ("100 x 3-juror jury", 100, 3)]
    out = []
    for name, n, jurors in [*cases, ("raw litellm", 500, 0), ("httpx floor", 500, -1)]:
        if args.only and args.only not in name:
            continue
        if jurors == -1:
            r = await _http_floor(n, args.concurrency, base_url)
        elif jurors == 0:
            r = await _raw_floor(n, args.concurrency, base_url)
        else:
            r = await _case(name, n, jurors, args.concurrency, base_url)
        out.append(r)
        print(f"{r['case']:>20}: {r['calls']} calls  wall {r['wall_s']:.2f} s  ideal "
              f"{r['ideal_s']:.1f} s  ratio {r['ratio']:.2f}  cpu/call {r['cpu_ms_per_call']:.1f} "
              f"ms  overhead/assertion {r['overhead_ms_per_assertion']:.1f} ms  {r['statuses']}",
              flush=True)
    print(f"peak RSS: {_rss_mib():.0f} MiB")
    return out


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--only", default="")
    p.add_argument("--concurrency", type=int, default=20)
    args = p.parse_args()
    ctx = mp.get_context("spawn")
    q, stop = ctx.Queue(), ctx.Event()
    server = ctx.Process(target=_serve, args=(q, stop), daemon=True)
    server.start()
    base_url = q.get(timeout=60)
    try:
        anyio.run(_all, args, base_url)
    finally:
        stop.set()
        print(f"requests the judge server saw: {q.get(timeout=30)}")
        server.join(timeout=10)


if __name__ == "__main__":
    main()
