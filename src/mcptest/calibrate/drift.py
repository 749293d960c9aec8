"""`mcptest calibrate --check-drift`: has the judge changed since its record was written?

Models behind versionless names change without a word, and a record measured against the old
model keeps gating runs. The check judges the labelled candidates again, with no cache, and
pairs each fresh verdict with the one the record holds (`CalibrationRecord.verdicts`). Two
figures decide: the exact McNemar test (a two-sided binomial test of the flips' direction:
has the pass rate moved?) and the flip rate (how many verdicts changed at all, whichever way;
McNemar misses a judge flipping as many one way as the other). The record is stale when
McNemar's p is below `DRIFT_LEVEL` or the flip rate above `MAX_FLIP_RATE` (docs/calibration.md,
"Drift").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from mcptest.calibrate.record import DriftCheck

DRIFT_LEVEL = 0.05
MAX_FLIP_RATE = 0.10


def compare_verdicts(old: Mapping[str, str], new: Mapping[str, str]) -> DriftCheck:
    """The drift between the record's verdicts and a fresh judging, label by label."""
    from scipy.stats import binomtest

    pairs = [(old[k], new[k]) for k in old if k in new]
    flips = sum(1 for a, b in pairs if a != b)
    to_pass = sum(1 for a, b in pairs if a == "fail" and b == "pass")
    p = float(binomtest(to_pass, flips, 0.5).pvalue) if flips else 1.0
    rate = flips / len(pairs) if pairs else 0.0
    stale = p < DRIFT_LEVEL or rate > MAX_FLIP_RATE
    reason = (f"{flips} of {len(pairs)} verdicts changed ({rate:.0%}; {to_pass} to pass, "
              f"{flips - to_pass} to fail), McNemar p = {p:.2g}"
              + (f": above the {MAX_FLIP_RATE:.0%} flip rate allowed" if rate > MAX_FLIP_RATE
                 else f": below {DRIFT_LEVEL:g}" if p < DRIFT_LEVEL else ": within bounds"))
    return DriftCheck(checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
                      labels=len(pairs), flips=flips, flip_rate=round(rate, 6), to_pass=to_pass,
                      p_value=p, stale=stale, reason=reason)


def versions_changed(old: Mapping[str, Sequence[str]], new: Mapping[str, Sequence[str]]
                     ) -> list[str]:
    """`model: old → new` for each model both name a provider version for, when they differ
    (a provider that names none, then or now, tells nothing)."""
    return [f"{m}: {', '.join(old[m])} → {', '.join(new[m])}" for m in sorted(old)
            if old[m] and new.get(m) and sorted(old[m]) != sorted(new[m])]
