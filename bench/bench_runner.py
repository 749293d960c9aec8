"""1,000 tool tests against the example stdio server: mcptest's runner vs a bare `mcp` loop.

Both sides spawn the same server, connect, and make the same N `tools/call` requests in the same
process run. Each side is timed at N and at N/5 calls: the slope between the two is the marginal
cost of one call with spawn and connect cancelled out, and the difference of the slopes is what
mcptest adds per call (loading the test, target resolution, matching, result records, report
building). Also times the cold start of `mcptest validate`.

    .venv/bin/python bench/bench_runner.py [--calls 1000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
SERVER = REPO / "examples" / "server" / "example_server.py"


def write_suite(folder: Path, n: int) -> Path:
    lines = [
        "servers:",
        "  ex:",
        f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]",
        "tools:",
    ]
    for i in range(n):
        lines += [
            f"  - name: greet {i}",
            "    server: ex",
            "    tool: greet",
            f"    args: {{name: user{i}}}",
            "    expect:",
            "      - target: result.content[0].text",
            f'        matcher: {{exact: "Hello, user{i}!"}}',
            "      - target: result.isError",
            "        matcher: {not: {exact: true}}",
        ]
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "bench.yml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def bare_loop(n: int) -> float:
    """The same calls through the SDK alone: spawn, connect, list tools, N calls."""
    from mcp import Client, StdioServerParameters

    start = time.perf_counter()
    params = StdioServerParameters(command=sys.executable, args=[str(SERVER)])
    async with Client(params, mode="legacy") as client:
        await client.list_tools()
        for i in range(n):
            await client.call_tool("greet", {"name": f"user{i}"})
    return time.perf_counter() - start


def mcptest_run(suite: Path) -> tuple[float, int]:
    """The pipeline in-process: load, plan, run, grade, build the report."""
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.pipeline import RunOptions, run_plan
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    start = time.perf_counter()
    suites = load_suites([suite], env=dict(os.environ))
    plan = build_plan(suites)
    report = run_plan(plan, RunOptions(judge=JudgeOptions(env=dict(os.environ)),
                                       handle_signals=False)).report
    return time.perf_counter() - start, report.summary.counts.passed


def cold_start(rounds: int) -> float:
    examples = sorted(str(p) for p in (REPO / "examples").glob("*.yml"))
    times = []
    for _ in range(rounds):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-m", "mcptest", "validate", *examples],
                       check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    big, small = args.calls, max(1, args.calls // 5)
    with tempfile.TemporaryDirectory() as tmp:
        suites = {n: write_suite(Path(tmp) / str(n), n) for n in (big, small)}
        times: dict[tuple[str, int], list[float]] = {}
        for _ in range(args.rounds):  # alternate so machine load affects both sides alike
            for n in (big, small):
                times.setdefault(("bare", n), []).append(anyio.run(bare_loop, n))
                took, passed = mcptest_run(suites[n])
                assert passed == n, f"only {passed} of {n} passed"
                times.setdefault(("ours", n), []).append(took)
    med = {k: statistics.median(v) for k, v in times.items()}
    slope = {side: (med[(side, big)] - med[(side, small)]) / (big - small) * 1000
             for side in ("bare", "ours")}
    print(f"{big} tool tests against the example stdio server, median of {args.rounds} rounds")
    print(f"  bare mcp loop      {med[('bare', big)]:7.3f} s total, {slope['bare']:.3f} ms per call")
    print(f"  mcptest runner     {med[('ours', big)]:7.3f} s total, {slope['ours']:.3f} ms per call")
    print(f"  overhead per call  {slope['ours'] - slope['bare']:7.3f} ms  (aim < 1 ms)")
    print(f"  cold start of `mcptest validate examples/*.yml`: {cold_start(5):.3f} s (aim < 1 s)")


if __name__ == "__main__":
    main()
