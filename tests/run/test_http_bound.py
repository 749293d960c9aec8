"""`max_result_bytes` bounds HTTP answers while they stream (issue 25): an 800 MB answer, as a
JSON body, as one server-sent event, as a gzip bomb, and over the legacy SSE transport, each
becomes its test's error with the size and the bound, the next call on the same connection
passes, the report is written, and mcptest's memory stays far below the answer (docs/suites.md,
"Answers too large").

The answers are generated piece by piece by a loopback server at test time
(tests/support/huge_http.py); nothing here holds one in memory.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support.huge_http import HugeHttpServer
from support.peak_rss import measured_mcptest, peak_mib

pytestmark = pytest.mark.slow

HUGE = 800_000_000
MAX_RSS_MIB = 300
DEFAULT_BOUND = 8 * 1024 * 1024


def _run(tmp_path: Path, server: str, tests: list[tuple[str, str, dict[str, Any]]]) -> tuple[
        int, str, int, dict[str, dict[str, Any]]]:
    """Exit code, stderr, peak RSS in MiB and the report's tests by name of one `mcptest run`."""
    body = "".join(
        f"  - {{name: {name}, server: s, tool: {tool}, args: {json.dumps(args)}, timeout: 60}}\n"
        for name, tool, args in tests)
    suite = tmp_path / "suite.yml"
    suite.write_text(f"servers:\n  s: {server}\ntools:\n{body}", encoding="utf-8")
    out = tmp_path / "run.json"
    peak = tmp_path / "peak-kib"
    proc = subprocess.run(measured_mcptest(peak, "run", str(suite), "--reporter", "json",
                                           "--output", str(out)),
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=tmp_path,
                          check=False)
    err = proc.stderr.decode(errors="replace")
    report = json.loads(out.read_text(encoding="utf-8"))
    return proc.returncode, err, int(peak_mib(peak)), {t["name"]: t for t in report["tests"]}


def _over(size: str, key_bound: int) -> str:
    return (f"protocol: the tool's answer is {size} bytes, over servers.s.max_result_bytes "
            f"({key_bound:,}); it was skipped and not graded")


def test_800_mb_over_streamable_http(tmp_path: Path) -> None:
    with HugeHttpServer() as server:
        code, err, rss, tests = _run(tmp_path, f"{{url: '{server.url}', protocol: legacy}}", [
            ("json", "json", {"bytes": HUGE}), ("after json", "ok", {"text": "a"}),
            ("events", "events", {"bytes": HUGE}), ("after events", "ok", {"text": "b"}),
            ("gzip bomb", "gzip", {"bytes": HUGE}), ("after gzip", "ok", {"text": "c"}),
            ("id at the end", "bare", {"bytes": 20_000_000}), ("under", "json", {"bytes": 1000}),
        ])
    assert code == 1, err
    assert "Traceback" not in err, err
    for name in ("json", "events", "gzip bomb", "id at the end"):
        assert (tests[name]["status"], tests[name]["gap"]) == ("error", "protocol"), name
        assert tests[name]["message"].startswith(
            _over(f"more than {DEFAULT_BOUND:,}", DEFAULT_BOUND)), tests[name]["message"]
    for name in ("after json", "after events", "after gzip", "under"):
        assert tests[name]["status"] == "passed", tests[name]
    assert rss < MAX_RSS_MIB, f"peak RSS {rss} MiB"


def test_800_mb_over_legacy_sse(tmp_path: Path) -> None:
    """One stream carries every answer: the huge event is skipped as it streams in and the
    stream goes on. The SDK's SSE client allows 1 MiB a event, below `max_result_bytes`."""
    with HugeHttpServer() as server:
        code, err, rss, tests = _run(
            tmp_path, f"{{url: '{server.sse_url}', transport: sse, protocol: legacy}}", [
                ("huge", "events", {"bytes": HUGE}), ("after huge", "ok", {"text": "a"}),
                ("no id", "bare", {"bytes": 2_000_000}), ("after no id", "ok", {"text": "b"}),
            ])
    assert code == 1, err
    assert "Traceback" not in err, err
    assert tests["huge"]["message"].startswith(
        "protocol: the tool's answer is more than 1,048,576 bytes, over the 1,048,576-byte event "
        "limit of the SSE transport"), tests["huge"]["message"]
    assert tests["no id"]["message"].startswith(
        "protocol: the server wrote invalid protocol output instead of an answer: 'a server-sent "
        "event of more than 1,048,576 bytes"), tests["no id"]["message"]
    assert tests["after huge"]["status"] == tests["after no id"]["status"] == "passed", tests
    assert rss < MAX_RSS_MIB, f"peak RSS {rss} MiB"
