"""Render time and peak memory of every reporter on a big report, and SARIF against GitHub's limits.

Builds `big_report(n)` (tests/reporters/sample.py), renders each format that exists `--repeat`
times (median wall and CPU time; CPU is the steadier number on a shared machine), then once
more under tracemalloc for the peak Python allocation. Also times `redact_report` and checks the SARIF file against code scanning's upload limits
(10 MB gzip-compressed, 25,000 results a run; mcptest itself keeps at most 5,000).

    .venv/bin/python bench/bench_reporters.py [-n 10000] [--repeat 3] [--json]
"""

from __future__ import annotations

import argparse
import gzip
import importlib
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "tests" / "reporters"))

from sample import big_report  # noqa: E402

from mcptest.report.models import Report  # noqa: E402
from mcptest.report.redact import redact_report  # noqa: E402
from mcptest.reporters import REPORTERS, Reporter  # noqa: E402

GITHUB_SARIF_GZIP_LIMIT = 10 * 1024 * 1024
GITHUB_RESULTS_PER_RUN = 25_000


def _reporter(name: str) -> Reporter | None:
    try:
        module = importlib.import_module(REPORTERS[name])
    except ModuleNotFoundError as exc:
        if exc.name == REPORTERS[name]:
            return None
        raise
    return module.render  # type: ignore[no-any-return]


def measure(render: Reporter, report: Report, repeat: int) -> dict[str, float]:
    times, cpu = [], []
    text = ""
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        text = render(report)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    tracemalloc.start()
    render(report)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "median_s": statistics.median(times),
        "median_cpu_s": statistics.median(cpu),
        "peak_mib": peak / 2**20,
        "output_mib": len(text.encode("utf-8")) / 2**20,
    }


def sarif_limits(report: Report) -> dict[str, Any]:
    from mcptest.reporters.sarif import findings, render

    text = render(report)
    raw = text.encode("utf-8")
    packed = gzip.compress(raw)
    log = json.loads(text)
    kept = len(log["runs"][0]["results"])
    return {
        "findings": len(findings(report)),
        "results_kept": kept,
        "results_omitted": log["runs"][0]["properties"]["resultsOmitted"],
        "raw_mib": len(raw) / 2**20,
        "gzip_mib": len(packed) / 2**20,
        "gzip_share_of_limit": len(packed) / GITHUB_SARIF_GZIP_LIMIT,
        "within_github_limits": len(packed) <= GITHUB_SARIF_GZIP_LIMIT
        and kept <= GITHUB_RESULTS_PER_RUN,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, default=10_000, help="tests in the report")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    start = time.perf_counter()
    report = big_report(args.n)
    build_s = time.perf_counter() - start
    start = time.process_time()
    redact_report(report, ["sk-test-SECRET123456789"])
    redact_s = time.process_time() - start

    rows: dict[str, dict[str, float]] = {}
    for name in sorted(REPORTERS):
        render = _reporter(name)
        if render is not None:
            rows[name] = measure(render, report, args.repeat)
    result = {"tests": args.n, "build_s": build_s, "redact_s": redact_s, "formats": rows,
              "sarif": sarif_limits(report)}
    if args.json:
        print(json.dumps(result, indent=2))
        return
    print(f"{args.n} tests; report built in {build_s:.2f} s; "
          f"redact_report {redact_s:.2f} s CPU")
    print(f"{'format':<8} {'wall s':>8} {'CPU s':>8} {'peak MiB':>9} {'out MiB':>8}")
    for name, row in rows.items():
        print(f"{name:<8} {row['median_s']:>8.3f} {row['median_cpu_s']:>8.3f} "
              f"{row['peak_mib']:>9.1f} {row['output_mib']:>8.2f}")
    s = result["sarif"]
    print(f"sarif: {s['findings']} findings, {s['results_kept']} kept, "
          f"{s['results_omitted']} omitted; {s['raw_mib']:.2f} MiB raw, "
          f"{s['gzip_mib']:.2f} MiB gzip ({s['gzip_share_of_limit']:.1%} of GitHub's 10 MB); "
          f"within limits: {s['within_github_limits']}")


if __name__ == "__main__":
    main()
