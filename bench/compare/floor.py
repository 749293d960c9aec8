"""The floor of a judged workload: about the least wall time a Python process takes against the
bench judge.

    python -I -S bench/compare/floor.py BASE_URL CALLS CONCURRENCY

A bare client: CONCURRENCY threads, each with one blocking keep-alive socket, sending its share
of CALLS one after the other (at most CONCURRENCY in flight, as both CLIs are held to) and
reading each answer's bytes, nothing more: no TLS, no JSON, no grading, no report, no asyncio
(its import alone is ~50 ms), no site packages (`-S`). What mcptest takes beyond this row is its
own; what this row takes beyond the ideal (calls over concurrency, times the latency) is the
interpreter's start and the judge's own turnaround. `run.py` runs it as a row of each judged
workload (docs/judges.md, "Speed").
"""

from __future__ import annotations

import socket
import sys
import threading
from urllib.parse import urlsplit


def _lane(address: tuple[str, int], request: bytes, calls: int, answered: list[int]) -> None:
    with socket.create_connection(address) as sock:
        for _ in range(calls):
            sock.sendall(request)
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                data += chunk
            head, _, body = data.partition(b"\r\n\r\n")
            length = next(int(line.split(b":", 1)[1]) for line in head.split(b"\r\n")
                          if line.lower().startswith(b"content-length:"))
            while len(body) < length:
                chunk = sock.recv(65536)
                if not chunk:
                    return
                body += chunk
            answered.append(head.startswith(b"HTTP/1.1 200"))


def main(base_url: str, calls: int, concurrency: int) -> int:
    url = urlsplit(base_url)
    body = b'{"model": "judge-a", "messages": [{"role": "user", "content": "floor"}]}'
    request = (f"POST {url.path}/chat/completions HTTP/1.1\r\nHost: {url.netloc}\r\n"
               f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
               ).encode() + body
    lanes = min(concurrency, calls)
    answered: list[int] = []
    threads = [threading.Thread(target=_lane, args=(
        (url.hostname or "127.0.0.1", url.port or 80), request,
        calls // lanes + (1 if i < calls % lanes else 0), answered)) for i in range(lanes)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(answered)


if __name__ == "__main__":
    want = int(sys.argv[2])
    sys.exit(0 if main(sys.argv[1], want, int(sys.argv[3])) == want else 1)
