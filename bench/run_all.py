"""`make bench`: short versions of the benches, one after another, each as its own process.

A minute or two on an idle machine; the full-size runs (and what each measures) are in each
script's docstring and in docs/reports.md, "Scale". Exits non-zero when a bench fails.

    .venv/bin/python bench/run_all.py
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHORT: tuple[tuple[str, ...], ...] = (
    ("bench_scale.py", "--quick"),
    ("bench_cases.py", "--cases", "1000", "--separate", "200", "--rounds", "1"),
    ("bench_reporters.py", "-n", "2000", "--repeat", "1"),
    ("compare/early_stop.py",),
    ("bench_quick_loop.py",),  # `pytest -m 'not slow' -n 4`: its wall time (docs/architecture.md)
    ("bench_replay.py", "--tests", "10", "--latency", "0.2"),
    ("bench_cascade.py", "--seeds", "1"),
    ("bench_shift_looks.py", "--splits", "20"),
    ("bench_adaptive_repeats.py",),
    ("bench_jurors.py",),  # ~17 s of CPU: the table of docs/jury.md, "Jurors that err together"
)


def main() -> int:
    failed = []
    for script, *args in SHORT:
        print(f"== {script} {' '.join(args)}", flush=True)
        start = time.perf_counter()
        rc = subprocess.run([sys.executable, str(HERE / script), *args], check=False).returncode
        print(f"== {script}: exit {rc} after {time.perf_counter() - start:.1f} s\n", flush=True)
        if rc != 0:
            failed.append(script)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
