"""Adaptive repeats against a fixed count on rows whose true pass rates are known: the same
decisions, and how many runs each needs (tests/stats/test_sequential.py asserts it,
bench/bench_adaptive_repeats.py prints it).

Each row gets one seeded stream of runs; the fixed count decides on its first `fixed` runs,
the adaptive rule on as many of the same runs as it asks for (so a difference is the rule's,
not the dice's). The baseline row is the one the branch's own repeated run left: `passed` when
all of its `fixed` runs at the baseline rate passed, else failed or flaky."""

from __future__ import annotations

import random
from dataclasses import dataclass

from mcptest.stats.sequential import needs_repeats, settle

MIX: tuple[tuple[str, float, float, float], ...] = (
    # (kind, share of rows, baseline rate, new rate; a rate < 0 is drawn from 0.3..0.9)
    ("stable pass", 0.60, 1.0, 1.0),
    ("stable fail", 0.10, 0.0, 0.0),
    ("rarely flaky", 0.10, 0.97, 0.97),
    ("flaky", 0.10, -1.0, -1.0),
    ("regressed", 0.10, 1.0, 0.2),
)
"""A suite's rows: most stable, some flaky, some broken by the change under test."""


@dataclass(frozen=True)
class Outcome:
    rows: int
    agree: int
    fixed_runs: int
    adaptive_runs: int
    decided_by: dict[str, int]


def simulate(rows: int = 1000, fixed: int = 10, threshold: float = 1.0, seed: int = 39
             ) -> Outcome:
    rng = random.Random(seed)
    agree = adaptive_runs = 0
    by: dict[str, int] = {}
    for _ in range(rows):
        pick = rng.random()
        old, new = MIX[-1][2], MIX[-1][3]
        for _kind, share, rate_old, rate_new in MIX:
            if pick < share:
                old, new = rate_old, rate_new
                break
            pick -= share
        flaky = rng.uniform(0.3, 0.9)
        old, new = (flaky if old < 0 else old), (flaky if new < 0 else new)
        runs = [rng.random() < new for _ in range(fixed)]
        baseline = all(rng.random() < old for _ in range(fixed))
        fixed_met = sum(runs) >= threshold * fixed - 1e-9
        used, decision = 1, None
        if not needs_repeats(runs[0], baseline):
            decision, how = runs[0], "one run"
        else:
            while True:
                v = settle(sum(runs[:used]), used, threshold, fixed)
                if v.decision is not None:
                    decision, how = v.decision == "met", str(v.by)
                    break
                used += 1
        agree += decision == fixed_met
        adaptive_runs += used
        by[how] = by.get(how, 0) + 1
    return Outcome(rows=rows, agree=agree, fixed_runs=rows * fixed,
                   adaptive_runs=adaptive_runs, decided_by=by)
