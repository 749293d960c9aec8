"""HTTP clients on the fast route's seam: import cost, CPU per call, memory.

    .venv/bin/python bench/compare/seam.py CLIENT BASE_URL

CLIENT: `httpx` (one client, a pool of 20), `openai` (the SDK), `httpx-free` and `httpcore-free`
(a free list of single-connection clients, one per call in flight: how `llm/connections.py`
kept them), `h11` (the route's own `llm/connections.py`: h11 on anyio's streams), `aiohttp` (installed with litellm; not a dependency of ours). Run against
`judge.py` (e.g. `--latency 0.2`): one warm-up request, then 200 chat completions at concurrency
20, each answer's JSON verdict parsed. Prints import CPU, CPU per call, the wall for the 200
calls and peak RSS. The choices it informed: docs/judges.md, "Speed".
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from collections.abc import Awaitable, Callable

N, CONCURRENCY = 200, 20
Call = Callable[[], Awaitable[None]]
MESSAGES = [{"role": "user", "content": "grade this " * 50}]


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


BODY = {"model": "m", "messages": MESSAGES, "max_tokens": 100,
        "response_format": {"type": "json_object"}}


def free_list(which: str, base: str) -> Call:
    """One single-connection client per call in flight, reused from a free list."""
    free: list[object] = []
    if which == "httpx-free":
        import httpx

        def make() -> object:  # as the route kept them for a plain-HTTP gateway: no TLS
            return httpx.AsyncClient(limits=httpx.Limits(max_connections=1,
                                                         max_keepalive_connections=1),
                                     verify=False, trust_env=False)

        async def send(c: object) -> bytes:
            r = await c.post(base + "/chat/completions", timeout=30,  # type: ignore[attr-defined]
                             headers={"Authorization": "Bearer bench"}, json=BODY)
            return bytes(r.content)
    else:
        import httpcore

        def make() -> object:
            return httpcore.AsyncConnectionPool(max_connections=1, max_keepalive_connections=1)

        timeout = {"timeout": dict.fromkeys(("connect", "read", "write", "pool"), 30)}

        async def send(c: object) -> bytes:
            r = await c.request(  # type: ignore[attr-defined]
                "POST", base + "/chat/completions", content=json.dumps(BODY).encode(),
                headers=[(b"Authorization", b"Bearer bench"),
                         (b"Content-Type", b"application/json")], extensions=timeout)
            return bytes(r.content)

    async def one() -> None:
        c = free.pop() if free else make()
        try:
            data = await send(c)
        finally:
            free.append(c)
        json.loads(json.loads(data)["choices"][0]["message"]["content"])
    return one


def client(which: str, base: str) -> tuple[Call, Call | None]:
    """One call of `which`, and what closes its session when the measurement is done (called
    inside the event loop, so a session can be made here)."""
    if which in ("httpx-free", "httpcore-free"):
        return free_list(which, base), None
    if which == "h11":  # the route's own connections: h11 on anyio's streams
        import h11  # noqa: F401  (the route imports it at its first request: counted here)

        from mcptest.llm.connections import Connections

        route = Connections()
        head = [(b"Host", base.split("/")[2].encode()), (b"Authorization", b"Bearer bench"),
                (b"Content-Type", b"application/json")]

        async def one_h11() -> None:
            r = await route.post(base, "/chat/completions", head, json.dumps(BODY).encode(), 30)
            json.loads(json.loads(r.content)["choices"][0]["message"]["content"])
        return one_h11, route.aclose
    if which == "aiohttp":
        import aiohttp

        session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=CONCURRENCY))

        async def one_aiohttp() -> None:
            async with session.post(base + "/chat/completions", json=BODY,
                                    headers={"Authorization": "Bearer bench"}) as r:
                data = await r.json()
            json.loads(data["choices"][0]["message"]["content"])
        return one_aiohttp, session.close
    if which == "httpx":
        import httpx

        http = httpx.AsyncClient(limits=httpx.Limits(max_connections=CONCURRENCY,
                                                     max_keepalive_connections=CONCURRENCY))

        async def one() -> None:
            r = await http.post(base + "/chat/completions", timeout=30,
                                headers={"Authorization": "Bearer bench"}, json=BODY)
            json.loads(r.json()["choices"][0]["message"]["content"])
        return one, http.aclose
    import httpx
    import openai

    sdk = openai.AsyncOpenAI(base_url=base, api_key="bench", max_retries=0,
                             http_client=openai.DefaultAsyncHttpxClient(limits=httpx.Limits(
                                 max_connections=CONCURRENCY,
                                 max_keepalive_connections=CONCURRENCY)))

    async def one_sdk() -> None:
        r = await sdk.chat.completions.create(model="m", messages=MESSAGES,  # type: ignore
                                              max_tokens=100, timeout=30,
                                              response_format={"type": "json_object"})
        json.loads(r.choices[0].message.content or "{}")
    return one_sdk, sdk.close


async def main(which: str, base: str) -> None:
    c0 = cpu()
    one, close = client(which, base)
    imported = cpu() - c0
    sem = asyncio.Semaphore(CONCURRENCY)

    async def bounded() -> None:
        async with sem:
            await one()

    await one()
    c1, t1 = cpu(), time.perf_counter()
    await asyncio.gather(*[bounded() for _ in range(N)])
    wall, used = time.perf_counter() - t1, cpu() - c1
    if close is not None:
        await close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{which}: import CPU {imported:.2f} s, {N} calls in {wall:.2f} s, "
          f"CPU per call {used / N * 1000:.2f} ms, peak RSS {rss:.0f} MiB")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
