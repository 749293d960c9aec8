"""What the shift check's looks during the run save in the issue's shifted scenario
(docs/cascade.md, "When the guarantee does not apply").

Run: `.venv/bin/python bench/bench_shift_looks.py [--splits N]`. The simulation of
tests/calibrate/test_shift_simulation.py (a fresh pool of 500 labels with 3% hard cases and a
fresh run of 400 answers per split, graded in order through `ShiftLooks`, the runtime's looks):
calibrated, then run on answers with 25% hard cases (shifted) and with 3% (unshifted). Checked
only after the run, every answer pays the cheap tier and every answer ends at the last tier
(the escalated ones once, the settled ones when graded again). With the looks, the answers
after the look that fired skip the cheap tier; the last tier still grades each answer once.
Prices per verdict are the simulation's: cheap tier $0.001, last tier (a jury) $0.02.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

CHEAP_USD, LAST_USD = 0.001, 0.02


def main() -> int:
    from calibrate.test_shift_simulation import RUN, _split

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--splits", type=int, default=100)
    args = parser.parse_args()
    print(f"{args.splits} splits, {RUN} answers a run; cheap ${CHEAP_USD}, last tier "
          f"${LAST_USD} a verdict")
    print("| run | fired | at an interim look | median answers of tier 1 before it | cheap calls "
          "a run (after the run → with looks) | spend of a fired run (after → with looks) |")
    print("|---|---|---|---|---|---|")
    for name, base, hard in (("shifted 3% → 25%", 10_000, 0.25), ("unshifted", 0, 0.03)):
        results = [_split(base + s, hard) for s in range(args.splits)]
        fired = [r for r in results if r.fired]
        early = [r for r in fired if r.fired_after is not None and r.fired_after < RUN]
        cheap = statistics.fmean(r.cheap_calls for r in results)
        # a fired run ends with every answer at the last tier, either way; checked after the
        # run, every answer also paid the cheap tier
        after = RUN * (CHEAP_USD + LAST_USD)
        looks = statistics.fmean(r.cheap_calls * CHEAP_USD + RUN * LAST_USD
                                 for r in fired) if fired else after
        median = statistics.median(r.fired_after or 0 for r in early) if early else "-"
        print(f"| {name} | {len(fired)}/{len(results)} | {len(early)} | {median} | "
              f"{RUN} → {cheap:.1f} | ${after:.3f} → ${looks:.3f} (saved ${after - looks:.3f}, "
              f"{(after - looks) / after:.1%}; {(after - looks) / (RUN * CHEAP_USD):.0%} of the "
              "cheap tier's) |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
