"""The floor of mcptest's own libraries on a judged workload: what a process that reads the suite
with PyYAML, validates it with one pydantic model and sends the same calls over anyio and h11
takes against the bench judge, nothing more.

    <mcptest's runtime venv>/bin/python bench/compare/stack_floor.py BASE_URL CALLS CONCURRENCY SUITE

mcptest is built on these libraries, so its start-up cannot go below theirs (their imports, the
first pydantic model's set-up, the event loop): this row splits mcptest's gap over `floor.py`
into the libraries' part and mcptest's own. `run.py` runs it beside the floor (docs/judges.md,
"Start-up against the floor"). Only the validation is a stand-in: one flat model, not the suite's. It ends its process as
mcptest's console script does (`os._exit` once its output is flushed), so neither row carries the
interpreter's teardown.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any
from urllib.parse import urlsplit

import anyio
import h11
import yaml
from pydantic import BaseModel


class _Eval(BaseModel):
    name: str
    prompt: str
    response: str
    rubric: str
    threshold: float
    judge: dict[str, Any]


class _Suite(BaseModel):
    evals: list[_Eval]


async def _lane(host: str, port: int, target: str, bodies: list[bytes], answered: list[bool]
                ) -> None:
    async with await anyio.connect_tcp(host, port) as stream:
        conn = h11.Connection(h11.CLIENT)
        for body in bodies:
            await stream.send(b"".join((
                conn.send(h11.Request(method="POST", target=target, headers=[
                    ("Host", f"{host}:{port}"), ("Content-Type", "application/json"),
                    ("Content-Length", str(len(body)))])) or b"",
                conn.send(h11.Data(data=body)) or b"", conn.send(h11.EndOfMessage()) or b"")))
            status, data = 0, bytearray()
            while True:
                event = conn.next_event()
                if event is h11.NEED_DATA:
                    conn.receive_data(await stream.receive())
                elif isinstance(event, h11.Response):
                    status = event.status_code
                elif isinstance(event, h11.Data):
                    data += event.data
                elif isinstance(event, h11.EndOfMessage):
                    break
            json.loads(data)
            answered.append(status == 200)
            conn.start_next_cycle()


async def run(base_url: str, calls: int, concurrency: int, suite: str) -> int:
    with open(suite, encoding="utf-8") as f:
        evals = _Suite.model_validate(yaml.load(f, Loader=yaml.CSafeLoader)).evals
    url = urlsplit(base_url)
    bodies = [json.dumps({"model": "judge-a", "messages": [
        {"role": "user", "content": f"{evals[i % len(evals)].rubric}\n\n"
                                    f"{evals[i % len(evals)].response}"}]}).encode()
              for i in range(calls)]
    lanes = min(concurrency, calls)
    answered: list[bool] = []
    async with anyio.create_task_group() as tg:
        for i in range(lanes):
            tg.start_soon(_lane, url.hostname or "127.0.0.1", url.port or 80,
                          f"{url.path}/chat/completions", bodies[i::lanes], answered)
    return sum(answered)


if __name__ == "__main__":
    want = int(sys.argv[2])
    got = anyio.run(run, sys.argv[1], want, int(sys.argv[3]), sys.argv[4])
    # ended as mcptest's console script ends (cli/main.py `_exit_now`): the interpreter's
    # teardown of pydantic and the rest (~30 ms) is no part of the libraries' floor
    sys.stdout.flush()
    os._exit(0 if got == want else 1)
