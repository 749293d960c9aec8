"""The floor of a judged workload: the least wall time a Python process can take against the
bench judge.

    python bench/compare/floor.py BASE_URL CALLS CONCURRENCY

A bare asyncio client on plain sockets: CONCURRENCY keep-alive connections, each sending its
share of CALLS one after the other (at most CONCURRENCY in flight, as both CLIs are held to),
reading each answer's bytes and nothing more: no TLS, no JSON, no grading, no report. Whatever
mcptest (a Python program) takes beyond this row is its own; what this row takes beyond the
ideal (calls over concurrency, times the latency) is the interpreter's start and the judge's
own turnaround, which no Python CLI can remove. `run.py` runs it as a row of each judged
workload (docs/judges.md, "Speed").
"""

from __future__ import annotations

import asyncio
import sys
from urllib.parse import urlsplit


async def _connection(host: str, port: int, request: bytes, calls: int) -> int:
    reader, writer = await asyncio.open_connection(host, port)
    answered = 0
    for _ in range(calls):
        writer.write(request)
        head = await reader.readuntil(b"\r\n\r\n")
        length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        await reader.readexactly(length)
        answered += head.startswith(b"HTTP/1.1 200")
    writer.close()
    return answered


async def _main(base_url: str, calls: int, concurrency: int) -> int:
    url = urlsplit(base_url)
    body = b'{"model": "judge-a", "messages": [{"role": "user", "content": "floor"}]}'
    request = (f"POST {url.path}/chat/completions HTTP/1.1\r\nHost: {url.netloc}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
               ).encode() + body
    lanes = min(concurrency, calls)
    shares = [calls // lanes + (1 if i < calls % lanes else 0) for i in range(lanes)]
    done = await asyncio.gather(*(_connection(url.hostname or "127.0.0.1", url.port or 80,
                                              request, n) for n in shares))
    return sum(done)


if __name__ == "__main__":
    want = int(sys.argv[2])
    got = asyncio.run(_main(sys.argv[1], want, int(sys.argv[3])))
    sys.exit(0 if got == want else 1)
