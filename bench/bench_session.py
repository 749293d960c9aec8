"""What ServerConnection costs per tools/call compared with a bare `mcp` Client loop.

Both clients make the same N `greet` calls against their own example server over stdio, in one
process run, alternating in blocks so machine load hits both alike. The bare loop is the SDK's
`Client.call_tool` (typed result, outputSchema validation); ours keeps the raw wire dict.

    .venv/bin/python bench/bench_session.py [-n 1000] [--tool greet] [--block 100]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from mcptest.run.session import ServerConnection  # noqa: E402
from mcptest.suite.models import StdioServer  # noqa: E402

SERVER = [sys.executable, str(REPO / "examples" / "server" / "example_server.py")]


def summary(label: str, wall_s: float, per_call_s: list[float]) -> dict[str, float]:
    ms = [x * 1000 for x in per_call_s]
    row = {
        "wall_s": wall_s,
        "median_ms": statistics.median(ms),
        "mean_ms": statistics.fmean(ms),
        "p95_ms": sorted(ms)[int(len(ms) * 0.95) - 1],
    }
    print(f"{label:<28} wall {wall_s:7.3f} s   median {row['median_ms']:6.3f} ms   "
          f"mean {row['mean_ms']:6.3f} ms   p95 {row['p95_ms']:6.3f} ms")
    return row


async def main(n: int, tool: str, block: int) -> None:
    """Open both clients, then alternate blocks of calls so both see the same machine load."""
    args: dict[str, Any] = {"name": "bench"} if tool == "greet" else {}
    print(f"{n} x tools/call {tool!r} per client against the example server over stdio, "
          f"interleaved in blocks of {block}\n")
    spec = StdioServer(command=SERVER)
    params = StdioServerParameters(command=SERVER[0], args=SERVER[1:])
    per: dict[str, list[float]] = {"ServerConnection": [], "bare mcp Client": []}
    wall = dict.fromkeys(per, 0.0)
    with open(os.devnull, "w") as devnull:
        t0 = time.perf_counter()
        async with ServerConnection.open("bench", spec, base_dir=REPO, env=dict(os.environ)) as conn:
            ours_connect = time.perf_counter() - t0
            t0 = time.perf_counter()
            async with Client(stdio_client(params, errlog=devnull)) as client:
                bare_connect = time.perf_counter() - t0
                await client.list_tools()  # as ServerConnection does on connect

                async def call_ours() -> None:
                    out = await conn.call_tool(tool, args, timeout=30)
                    assert out.result is not None, out

                async def call_bare() -> None:
                    result = await client.call_tool(tool, args)
                    assert not result.is_error

                for _ in range(5):  # warm-up, not counted
                    await call_ours()
                    await call_bare()
                done = 0
                while done < n:
                    size = min(block, n - done)
                    for label, call in (("ServerConnection", call_ours),
                                        ("bare mcp Client", call_bare)):
                        start = time.perf_counter()
                        for _ in range(size):
                            t = time.perf_counter()
                            await call()
                            per[label].append(time.perf_counter() - t)
                        wall[label] += time.perf_counter() - start
                    done += size
                t0 = time.perf_counter()
            bare_close = time.perf_counter() - t0
            t0 = time.perf_counter()
        ours_close = time.perf_counter() - t0
    rows = {label: summary(label, wall[label], per[label]) for label in per}
    print(f"\nconnect: ServerConnection {ours_connect * 1000:.0f} ms, "
          f"bare {bare_connect * 1000:.0f} ms; "
          f"close: ServerConnection {ours_close * 1000:.0f} ms, bare {bare_close * 1000:.0f} ms")
    mine, base = rows["ServerConnection"], rows["bare mcp Client"]
    print(f"overhead per call: median {mine['median_ms'] - base['median_ms']:+.3f} ms, "
          f"mean {mine['mean_ms'] - base['mean_ms']:+.3f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=1000)
    parser.add_argument("--tool", default="greet")
    parser.add_argument("--block", type=int, default=100)
    opts = parser.parse_args()
    anyio.run(main, opts.n, opts.tool, opts.block)
