"""A tools/list answer nested ~200 JSON levels deep (past the JSON parser's limit) fails the
server at once with a positioned protocol error, over stdio, Streamable HTTP and legacy SSE,
instead of stalling until the startup timeout (issue 25; docs/suites.md, "When a server
misbehaves"). The startup timeout is a minute: reaching it would change the message."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from support.cli_run import run_json
from support.huge_http import HugeHttpServer

pytestmark = pytest.mark.slow

DEEP = Path(__file__).resolve().parents[1] / "data" / "hostile_servers" / "deep_listing.py"
DEPTH = 100  # two JSON levels each: ~200 levels
MESSAGE = ("protocol: the server's answer while listing tools cannot be read: Invalid JSON: "
           "recursion limit exceeded at line 1 column ")


def _check(tmp_path: Path, server: str) -> None:
    suite = tmp_path / "deep.yml"
    suite.write_text(f"servers:\n  s: {server}\ntools:\n"
                     "  - {name: deep, server: s, tool: deep}\n", encoding="utf-8")
    r, report = run_json(suite)
    assert r.returncode == 3, r.stderr
    assert "Traceback" not in r.stderr
    assert MESSAGE in r.stderr, r.stderr
    assert "startup_timeout" not in r.stderr
    [row] = report["tests"]
    assert row["status"] == "error" and MESSAGE in row["message"]


def test_stdio(tmp_path: Path) -> None:
    _check(tmp_path, f"{{command: [{json.dumps(sys.executable)}, {json.dumps(str(DEEP))}, "
                     f"'{DEPTH}'], protocol: legacy, startup_timeout: 60s}}")


@pytest.mark.parametrize("transport", ["streamable-http", "sse"])
def test_http(tmp_path: Path, transport: str) -> None:
    with HugeHttpServer(listing_depth=DEPTH) as server:
        url = server.url if transport == "streamable-http" else server.sse_url
        _check(tmp_path, f"{{url: '{url}', transport: {transport}, protocol: legacy, "
                         "startup_timeout: 60s}")


def test_a_listing_over_max_result_bytes_says_so(tmp_path: Path) -> None:
    suite = tmp_path / "big.yml"
    suite.write_text(f"servers:\n  s: {{command: [{json.dumps(sys.executable)}, "
                     f"{json.dumps(str(DEEP))}, '60'], protocol: legacy, max_result_bytes: 1024, "
                     "startup_timeout: 60s}\ntools:\n  - {name: deep, server: s, tool: deep}\n",
                     encoding="utf-8")
    r, _report = run_json(suite)
    assert r.returncode == 3, r.stderr
    assert re.search(r"protocol: the server's answer while listing tools cannot be read: it is "
                     r"[\d,]+ bytes, over max_result_bytes \(1,024\)", r.stderr), r.stderr
