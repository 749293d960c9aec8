"""A lint-only run on a server with 100 tools: time from "server ready" to "all rules done".

The server is a generated MCPServer with 100 annotated tools (stdio). Startup and shutdown are
the server's own cost and are excluded; the target (docs/lint.md) is under 1 s after ready.
Every rule runs, including the wire-schema check of all traffic, the tools/list order probe and
the opt-in invalid-arguments probe (100 tool calls), reported separately.

    .venv/bin/python bench/bench_lint.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from mcptest.lint.lint_all import _server_rules  # noqa: E402
from mcptest.lint.wire_check import check_wire  # noqa: E402
from mcptest.suite.load import load_suite  # noqa: E402
from mcptest.suite.models import LintSettings  # noqa: E402
from mcptest.surface.open_servers import open_servers  # noqa: E402
from mcptest.surface.take import take_snapshot  # noqa: E402

SERVER = textwrap.dedent('''
    from mcp.server.mcpserver import MCPServer
    from mcp_types import ToolAnnotations

    server = MCPServer("hundred", version="1.0.0")
    def make(i):
        def tool(city: str, days: int = 1) -> str:
            return f"{i}:{city}:{days}"
        return tool

    for i in range(100):
        tool = make(i)
        server.tool(name=f"tool_{i:03d}", description=f"Forecast number {i} for a city, "
                    "over the given number of days.",
                    annotations=ToolAnnotations(title=f"Tool {i}", read_only_hint=True,
                                                destructive_hint=False))(tool)
    server.run("stdio")
''')


async def once(suite: Path, probe: bool) -> float:
    loaded = load_suite(suite, env=os.environ)
    settings = LintSettings(probe_invalid_args=probe)
    async with open_servers(loaded, ["hundred"], os.environ, tap=True) as found:
        assert not found.failed, found.failed
        conn = found.ready["hundred"]
        started = time.perf_counter()
        await take_snapshot(found, ["hundred"])
        raw = await _server_rules(conn, loaded, settings, set())
        problems, checked = check_wire(found.wires["hundred"], conn.protocol_version)
        elapsed = time.perf_counter() - started
        assert len(conn.tools) == 100 and not problems, (raw, problems)
        assert checked >= 3
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        server = Path(tmp) / "hundred.py"
        server.write_text(SERVER, encoding="utf-8")
        suite = Path(tmp) / "suite.yml"
        suite.write_text(f"servers:\n  hundred:\n    command: [{sys.executable!r}, "
                         f"{str(server)!r}]\n", encoding="utf-8")
        for probe in (False, True):
            times = [anyio.run(once, suite, probe) * 1000 for _ in range(args.repeat)]
            label = "with invalid-args probe" if probe else "default rules"
            print(f"lint after ready, 100 tools, {label}: median {statistics.median(times):.1f} "
                  f"ms, max {max(times):.1f} ms ({args.repeat} runs)")


if __name__ == "__main__":
    main()
