"""Jurors that err together: where the run's agreement band starts to mislead, the table in
docs/jury.md ("Jurors that err together") and the values of `CORRELATED_ERRORS` and
`SHARED_ERRORS` (src/mcptest/calibrate/correlation.py).

Run: `.venv/bin/python bench/bench_jurors.py [--runs N] [--items N]`. For each error
correlation ρ from 0 to 0.9 and each shape (`pair`: two of three jurors err together, `all`:
every pair does), seeded runs of three jurors right 80% of the time (tests/support/juror_sim.py)
give the mean run-level α, the jury's accuracy against the truth, and the share of runs the band
misleads (α above independent jurors' median while accuracy is below theirs). A pair warns from
the ρ at which the `pair` shape is misled in half the runs or more (`CORRELATED_ERRORS`), the
jurors' mean correlation from the ρ at which the `all` shape is (`SHARED_ERRORS`).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.juror_sim import first_misleading, simulate  # noqa: E402

from mcptest.calibrate.correlation import CORRELATED_ERRORS, SHARED_ERRORS  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--items", type=int, default=60)
    parser.add_argument("--seed", type=int, default=35)
    args = parser.parse_args()
    rhos = [round(0.05 * i, 2) for i in range(19)]
    t0 = time.process_time()
    tables = {shape: simulate(rhos, shape=shape, items=args.items, runs=args.runs,
                              seed=args.seed) for shape in ("pair", "all")}
    print(f"{args.runs} runs of {args.items} answers per cell, seed {args.seed}, "
          f"{time.process_time() - t0:.1f} s CPU\n")
    print("| ρ | α (pair) | accuracy (pair) | misled (pair) | α (all) | accuracy (all) "
          "| misled (all) |")
    print("|---|---|---|---|---|---|---|")
    for p, a in zip(tables["pair"], tables["all"], strict=True):
        print(f"| {p.rho:.2f} | {p.alpha:.3f} | {p.accuracy:.3f} | {p.misled:.0%} "
              f"| {a.alpha:.3f} | {a.accuracy:.3f} | {a.misled:.0%} |")
    starts = {shape: first_misleading(rows) for shape, rows in tables.items()}
    print(f"\nmisleads from ρ = {starts['pair']} (pair; CORRELATED_ERRORS = "
          f"{CORRELATED_ERRORS}), {starts['all']} (all; SHARED_ERRORS = {SHARED_ERRORS})")
    return 0 if (starts["pair"], starts["all"]) == (CORRELATED_ERRORS, SHARED_ERRORS) else 1


if __name__ == "__main__":
    sys.exit(main())
