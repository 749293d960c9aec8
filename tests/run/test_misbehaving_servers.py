"""Servers that break the protocol, fail over HTTP or answer too much: each test gets the right
status, gap and message; the connection stays usable; no traceback reaches stderr.

A real `mcptest run` (subprocess) against the purpose-built servers in tests/support.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support.misbehaving_http import MisbehavingHttpServer

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

SUPPORT = Path(__file__).resolve().parents[1] / "support"
STDIO = SUPPORT / "misbehaving_stdio.py"
BOUND = 1024 * 1024


def _run(tmp_path: Path, servers: str, tests: list[tuple[str, str, dict[str, Any]]]) -> tuple[
        subprocess.CompletedProcess[str], dict[str, dict[str, Any]]]:
    body = "".join(
        f"  - {{name: {name}, server: s, tool: {tool}, args: {json.dumps(args)}, timeout: 20}}\n"
        for name, tool, args in tests)
    suite = tmp_path / "suite.yml"
    suite.write_text(f"servers:\n  s: {servers}\ntools:\n{body}", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "mcptest", "run", str(suite), "--reporter",
                        "json", "--output", str(tmp_path / "run.json")],
                       capture_output=True, text=True, timeout=120, cwd=tmp_path)
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    return r, {t["name"]: t for t in report["tests"]}


def _no_traceback(r: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in r.stderr, r.stderr
    assert "Failed to parse JSONRPC" not in r.stderr


def test_stdio_server_breaking_the_protocol(tmp_path: Path) -> None:
    server = (f"{{command: [{json.dumps(sys.executable)}, {json.dumps(str(STDIO))}], "
              f"protocol: legacy, max_result_bytes: {BOUND}}}")
    r, tests = _run(tmp_path, server, [
        ("noise", "noise", {}), ("after-noise", "ok", {"text": "still here"}),
        ("badrpc", "badrpc", {}), ("notjson", "notjson", {}),
        ("big", "big", {"bytes": 50_000_000}), ("after-big", "ok", {"text": "still here"}),
        ("bigbare", "bigbare", {"bytes": 3 * BOUND}),
        ("under-bound", "big", {"bytes": BOUND // 2}), ("last", "ok", {"text": "x"}),
    ])
    assert r.returncode == 1
    _no_traceback(r)
    for name in ("noise", "badrpc", "notjson", "big", "bigbare"):
        assert (tests[name]["status"], tests[name]["gap"]) == ("error", "protocol"), name
    prefix = "protocol: the server wrote invalid protocol output instead of an answer: "
    assert tests["noise"]["message"] == (
        prefix + "'Traceback? no: INFO worker 3 started, listening on stdout like a web server'")
    assert tests["badrpc"]["message"].startswith(prefix + '{"jsonrpc": "2.0", "id": ')
    assert tests["notjson"]["message"].startswith(prefix + "'{\"jsonrpc\": \"2.0\", \"id\": ")
    assert tests["big"]["message"] == (
        "protocol: the tool's answer is 50,000,082 bytes, over servers.s.max_result_bytes "
        "(1,048,576); it was skipped and not graded (raise servers.s.max_result_bytes if "
        "answers this big are expected)")
    assert tests["bigbare"]["message"].startswith(
        prefix + "a line of 3,145,728 bytes (over the 1,048,576-byte bound) without a readable id")
    for name in ("after-noise", "after-big", "under-bound", "last"):
        assert tests[name]["status"] == "passed", tests[name]
    assert len(tests["noise"]["message"]) <= 400


@pytest.mark.parametrize(("tool", "gap", "message"), [
    ("unauthorized", "transport",
     'HTTP 401 Unauthorized from POST {url} (WWW-Authenticate: Bearer realm="mcp")'),
    ("forbidden", "transport", "HTTP 403 Forbidden from POST {url}"),
    ("boom", "transport", "HTTP 500 Internal Server Error from POST {url}"),
    ("html", "protocol", "protocol: the server answered tools/call with text/html; "
                         "charset=utf-8, not JSON or an event stream (an HTML error page from a "
                         "proxy?)"),
    ("notjson", "protocol", "protocol: the server's answer is not JSON-RPC: Failed to parse JSON "
                            "response: "),
    ("cut", "transport", "connection lost during tools/call: SSE stream"),
])
def test_http_failures_during_a_call(tmp_path: Path, tool: str, gap: str, message: str) -> None:
    with MisbehavingHttpServer() as server:
        r, tests = _run(tmp_path, f"{{url: '{server.url}', protocol: legacy}}", [
            ("before", "ok", {"text": "a"}), ("fault", tool, {}), ("after", "ok", {"text": "b"}),
        ])
    _no_traceback(r)
    fault = tests["fault"]
    assert (fault["status"], fault["gap"]) == ("error", gap)
    assert fault["message"].startswith(message.format(url=server.url)), fault["message"]
    assert tests["before"]["status"] == tests["after"]["status"] == "passed"


def test_http_answer_over_the_bound(tmp_path: Path) -> None:
    with MisbehavingHttpServer() as server:
        r, tests = _run(tmp_path, f"{{url: '{server.url}', protocol: legacy, "
                                  f"max_result_bytes: {BOUND}}}", [
            ("big", "big", {"bytes": 2 * BOUND}), ("after", "ok", {"text": "b"}),
        ])
    _no_traceback(r)
    assert (tests["big"]["status"], tests["big"]["gap"]) == ("error", "protocol")
    # the body's Content-Length: the whole JSON-RPC message, as stdio counts the whole line
    assert re.match(r"protocol: the tool's answer is 2,097,2\d\d bytes, over "
                    r"servers\.s\.max_result_bytes \(1,048,576\)", tests["big"]["message"])
    assert tests["after"]["status"] == "passed"
