"""httpx against the `openai` SDK on the fast route's seam: import cost, CPU per call, memory.

    .venv/bin/python bench/compare/seam.py httpx|openai BASE_URL

Run against `judge.py` (e.g. `--latency 0.2`): one warm-up request, then 200 chat completions
at concurrency 20, each answer's JSON verdict parsed. Prints import CPU, CPU per call, the
wall for the 200 calls and peak RSS. The choice it informed: docs/judges.md, "Speed".
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from collections.abc import Awaitable, Callable

N, CONCURRENCY = 200, 20
MESSAGES = [{"role": "user", "content": "grade this " * 50}]


def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def client(which: str, base: str) -> Callable[[], Awaitable[None]]:
    if which == "httpx":
        import httpx

        http = httpx.AsyncClient(limits=httpx.Limits(max_connections=CONCURRENCY,
                                                     max_keepalive_connections=CONCURRENCY))

        async def one() -> None:
            r = await http.post(base + "/chat/completions", timeout=30,
                                headers={"Authorization": "Bearer bench"},
                                json={"model": "m", "messages": MESSAGES, "max_tokens": 100,
                                      "response_format": {"type": "json_object"}})
            json.loads(r.json()["choices"][0]["message"]["content"])
        return one
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
    return one_sdk


async def main(which: str, base: str) -> None:
    c0 = cpu()
    one = client(which, base)
    imported = cpu() - c0
    sem = asyncio.Semaphore(CONCURRENCY)

    async def bounded() -> None:
        async with sem:
            await one()

    await one()
    c1, t1 = cpu(), time.perf_counter()
    await asyncio.gather(*[bounded() for _ in range(N)])
    wall, used = time.perf_counter() - t1, cpu() - c1
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{which}: import CPU {imported:.2f} s, {N} calls in {wall:.2f} s, "
          f"CPU per call {used / N * 1000:.2f} ms, peak RSS {rss:.0f} MiB")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
