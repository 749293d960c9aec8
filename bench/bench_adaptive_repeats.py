"""Adaptive repeats beside a fixed ten, on 1,000 rows whose true pass rates are known.

Run: `.venv/bin/python bench/bench_adaptive_repeats.py`. Each row's runs come from one seeded
stream, so both rules see the same dice (tests/support/repeat_simulation.py). The target
(issue 39): the same decisions in at least 95% of rows with at most half of the runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))


def main() -> None:
    from support.repeat_simulation import MIX, simulate

    print("rows: " + ", ".join(f"{share:.0%} {kind}" for kind, share, _, _ in MIX))
    print(f"{'min_pass_rate':>13} | {'fixed 10: runs':>14} | {'adaptive: runs':>14} | "
          f"{'share':>5} | {'same decision':>13} | decided by")
    for threshold in (1.0, 0.9, 0.8, 0.6):
        o = simulate(rows=1000, fixed=10, threshold=threshold)
        by = ", ".join(f"{k} {v}" for k, v in sorted(o.decided_by.items()))
        print(f"{threshold:>13.1f} | {o.fixed_runs:>14,} | {o.adaptive_runs:>14,} | "
              f"{o.adaptive_runs / o.fixed_runs:>5.0%} | {o.agree / o.rows:>13.1%} | {by}")


if __name__ == "__main__":
    main()
