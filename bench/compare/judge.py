"""A loopback OpenAI-compatible judge with a fixed latency, for the side-by-side bench.

Both CLIs talk to the same process: `POST …/chat/completions` answers after `--latency` seconds
with a verdict both understand (`{"reason", "pass", "score"}`: promptfoo's `llm-rubric` and
mcptest's judges read the same keys). Plain asyncio with keep-alive, so the server's own CPU
stays small next to the clients it measures; `GET /stats` returns the requests served and the
peak number of requests in flight since the previous `/stats` (so each run reads its own peak:
how many calls a CLI really overlaps, whatever its concurrency flag says); `GET /log` returns,
and forgets, each request since the previous `/log` as `[arrived, connection, answered]` on the
machine's monotonic clock (`time.monotonic()`, the same in every process), from which `run.py`
splits a run's wall into its phases (`phases.py`).
Answers whose candidate contains "FAIL" score 0.2, the others 0.9; on answers containing "SPLIT"
the models ending in `-b` and `-d` dissent (the early-stop bench mixes all three).

Run: `python bench/compare/judge.py --port 0 --latency 0.2` (prints `PORT <n>` when ready).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import sys
import time

_COUNT = {"requests": 0, "in_flight": 0, "peak_in_flight": 0}
_LOG: list[list[float]] = []
"""[arrived, connection, answered] per chat request since the last `GET /log`."""
_CONNECTIONS = itertools.count(1)
"""A number per connection (a closed writer's `id` may come back for the next one)."""


def _answer(body: bytes) -> bytes:
    try:
        req = json.loads(body)
    except ValueError:
        req = {}
    text = json.dumps(req.get("messages", []))
    model = str(req.get("model", "judge"))
    bad = "FAIL" in text
    if "SPLIT" in text and model.endswith(("-b", "-d")):
        bad = not bad  # a contested answer: these jurors dissent
    verdict = {"reason": "scripted", "pass": not bad, "score": 0.2 if bad else 0.9}
    return json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": model,
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": json.dumps(verdict)}}],
        "usage": {"prompt_tokens": len(text) // 4, "completion_tokens": 20,
                  "total_tokens": len(text) // 4 + 20},
    }).encode()


async def _handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                  latency: float) -> None:
    connection = float(next(_CONNECTIONS))
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            length = 0
            for line in lines[1:]:
                if line.lower().startswith("content-length:"):
                    length = int(line.split(":", 1)[1])
            body = await reader.readexactly(length) if length else b""
            record: list[float] | None = None
            if method == "GET" and path.endswith("/log"):
                out, status = json.dumps(_LOG).encode(), "200 OK"
                _LOG.clear()
            elif method == "GET" and path.endswith("/stats"):
                out, status = json.dumps(_COUNT).encode(), "200 OK"
                _COUNT["peak_in_flight"] = _COUNT["in_flight"]
            elif method == "POST" and path.endswith("/chat/completions"):
                _COUNT["requests"] += 1
                record = [time.monotonic(), connection, 0.0]
                _LOG.append(record)
                _COUNT["in_flight"] += 1
                _COUNT["peak_in_flight"] = max(_COUNT["peak_in_flight"], _COUNT["in_flight"])
                try:
                    await asyncio.sleep(latency)
                finally:
                    _COUNT["in_flight"] -= 1
                out, status = _answer(body), "200 OK"
            else:
                out, status = b'{"error": {"message": "not found"}}', "404 Not Found"
            writer.write(f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\n"
                         f"Content-Length: {len(out)}\r\nConnection: keep-alive\r\n\r\n"
                         .encode() + out)
            await writer.drain()
            if record is not None:
                record[2] = time.monotonic()
    except (asyncio.IncompleteReadError, ConnectionError, ValueError):
        pass
    finally:
        writer.close()


async def _main(port: int, latency: float) -> None:
    server = await asyncio.start_server(lambda r, w: _handle(r, w, latency), "127.0.0.1", port,
                                        backlog=1024)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--latency", type=float, default=0.2)
    a = ap.parse_args()
    try:
        asyncio.run(_main(a.port, a.latency))
    except KeyboardInterrupt:
        sys.exit(0)
