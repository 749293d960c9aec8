"""Hostile inputs against their bounds: time and peak memory per file, and a 50 MB answer.

For every file in tests/data/hostile/ one `mcptest validate FILE` process (wall time, and its own
peak RSS), the slowest and largest reported against the 2 s / 200 MiB targets of
issue 16. Then a stdio server answers 50 MB to a call with `max_result_bytes` at its default:
time to the call's error, and time of the next call on the same connection.

    .venv/bin/python bench/bench_hostile.py [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests"))

from support.peak_rss import measured_mcptest  # noqa: E402

from mcptest.run.session import ServerConnection  # noqa: E402
from mcptest.suite.models import StdioServer  # noqa: E402

HOSTILE = REPO / "tests" / "data" / "hostile"
STDIO = REPO / "tests" / "support" / "misbehaving_stdio.py"




def validate(path: Path, scratch: Path) -> dict[str, Any]:
    peak = scratch / "peak-kib"
    start = time.perf_counter()
    r = subprocess.run(measured_mcptest(peak, "validate", str(path)),
                       capture_output=True, timeout=120)
    return {"file": path.name, "exit": r.returncode,
            "seconds": round(time.perf_counter() - start, 3),
            "peak_rss_mib": round(int(peak.read_text()) / 1024, 1)}


async def big_answer(size: int) -> dict[str, Any]:
    spec = StdioServer(command=[sys.executable, str(STDIO)], protocol="legacy")
    async with ServerConnection.open("s", spec, base_dir=REPO, env=dict(os.environ)) as conn:
        start = time.perf_counter()
        big = await conn.call_tool("big", {"bytes": size}, 120)
        mid = time.perf_counter()
        after = await conn.call_tool("ok", {"text": "x"}, 120)
        end = time.perf_counter()
    return {"answer_bytes": size, "big_call_s": round(mid - start, 3),
            "next_call_s": round(end - mid, 4), "big_error": big.transport_error,
            "next_ok": after.result is not None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        rows = [validate(p, Path(scratch)) for p in sorted(HOSTILE.glob("*.yml"))]
    answer = anyio.run(big_answer, 50_000_000)
    summary = {"files": len(rows), "all_exit_2": all(r["exit"] == 2 for r in rows),
               "slowest_s": max(r["seconds"] for r in rows),
               "largest_rss_mib": max(r["peak_rss_mib"] for r in rows), "answer": answer}
    if args.json:
        print(json.dumps({"rows": rows, **summary}, indent=2))
        return
    for r in rows:
        print(f"{r['file']:<28} exit {r['exit']}  {r['seconds']:6.3f} s  {r['peak_rss_mib']:6.1f} MiB")
    print(f"\n{summary['files']} files, all exit 2: {summary['all_exit_2']}; slowest "
          f"{summary['slowest_s']:.3f} s (target 2 s), largest {summary['largest_rss_mib']:.1f} "
          "MiB (target 200)")
    print(f"50 MB stdio answer: error after {answer['big_call_s']:.3f} s; next call "
          f"{answer['next_call_s'] * 1000:.1f} ms (ok: {answer['next_ok']})")


if __name__ == "__main__":
    main()
