"""The quick loop as a developer runs it: `pytest -m 'not slow' -n WORKERS`, one whole process.

Prints its wall time, the CPU of the process and all it started (pytest-xdist workers, servers,
CLI subprocesses), the tests passed, and the load average before and after: on a shared machine
the wall time means little without the load. The target (docs/architecture.md, "Tests") is under
60 s of wall on 2 cores; this prints it, it does not fail on it. Exits with pytest's code.

    .venv/bin/python bench/bench_quick_loop.py [--workers 4] [--workers 2 ...]
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TARGET_S = 60.0


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def once(workers: int) -> int:
    """One quick loop with `workers` xdist workers (0: in one process); pytest's exit code."""
    argv = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
            "-n", str(workers)]
    load, cpu, start = _load(), _cpu(), time.perf_counter()
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - start, _cpu() - cpu
    tail = done.stdout.strip().splitlines()[-1:] or ["(no output)"]
    passed = re.search(r"(\d+) passed", tail[0])
    print(f"quick loop, -n {workers}: {wall:.1f} s wall, {cpu:.1f} s CPU, "
          f"{passed[1] if passed else '?'} passed, exit {done.returncode} "
          f"(target < {TARGET_S:.0f} s on {os.cpu_count()} cores; load {load} before, "
          f"{_load()} after)", flush=True)
    if done.returncode != 0:
        print(done.stdout[-3000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
    return done.returncode


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, action="append",
                        help="pytest-xdist workers (repeat to compare; default 4)")
    args = parser.parse_args()
    codes = [once(n) for n in args.workers or [4]]
    return max(codes)


if __name__ == "__main__":
    sys.exit(main())
