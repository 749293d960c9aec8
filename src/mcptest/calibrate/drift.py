"""`mcptest calibrate --check-drift`: has the judge changed since its record was written?

Models behind versionless names change without a word, and a record measured against the old
model keeps gating runs. The check judges the labelled candidates again, with no cache, and
pairs each fresh verdict with the one the record holds (`CalibrationRecord.verdicts`). Two
figures decide: the exact McNemar test (a two-sided binomial test of the flips' direction:
has the pass rate moved?) and the flip rate (how many verdicts changed at all, whichever way;
McNemar misses a judge flipping as many one way as the other). The record is stale when
McNemar's p is below `DRIFT_LEVEL` or the flip rate above `MAX_FLIP_RATE` (docs/calibration.md,
"Drift").

An `escalate:` cascade is judged again as it was calibrated, every tier on every label, and
compared k + 1 times: each tier with its own verdicts (`cascade.tiers[].verdicts`) and the
cascade's verdict (the record's thresholds applied to the fresh tiers) with `verdicts`.
`DRIFT_LEVEL` is shared evenly over those tests (Bonferroni), the flip rate bounds each.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from mcptest.calibrate.record import DriftCheck, TierDrift
from mcptest.grade.confidence import stands

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from mcptest.calibrate.cascade import TierOutput

DRIFT_LEVEL = 0.05
MAX_FLIP_RATE = 0.10


@dataclass(frozen=True)
class _Flips:
    """The verdicts of one judge, the record's against fresh ones, label by label."""

    labels: int
    flips: int
    to_pass: int
    p: float
    level: float

    @property
    def rate(self) -> float:
        return self.flips / self.labels if self.labels else 0.0

    @property
    def stale(self) -> bool:
        return self.p < self.level or self.rate > MAX_FLIP_RATE

    @property
    def reason(self) -> str:
        rate = self.rate
        return (f"{self.flips} of {self.labels} verdicts changed ({rate:.0%}; {self.to_pass} to "
                f"pass, {self.flips - self.to_pass} to fail), McNemar p = {self.p:.2g}"
                + (f": above the {MAX_FLIP_RATE:.0%} flip rate allowed" if rate > MAX_FLIP_RATE
                   else f": below {self.level:.2g}" if self.p < self.level
                   else ": within bounds"))


def _flips(old: Mapping[str, str], new: Mapping[str, str], level: float) -> _Flips:
    from scipy.stats import binomtest

    pairs = [(old[k], new[k]) for k in old if k in new]
    flips = sum(1 for a, b in pairs if a != b)
    to_pass = sum(1 for a, b in pairs if a == "fail" and b == "pass")
    p = float(binomtest(to_pass, flips, 0.5).pvalue) if flips else 1.0
    return _Flips(len(pairs), flips, to_pass, p, level)


def _check(own: _Flips, reason: str, tiers: list[TierDrift]) -> DriftCheck:
    return DriftCheck(checked_at=datetime.now(UTC).isoformat(timespec="seconds"),
                      labels=own.labels, flips=own.flips, flip_rate=round(own.rate, 6),
                      to_pass=own.to_pass, p_value=own.p,
                      stale=own.stale or any(t.stale for t in tiers), reason=reason, tiers=tiers)


def compare_verdicts(old: Mapping[str, str], new: Mapping[str, str]) -> DriftCheck:
    """The drift between the record's verdicts and a fresh judging, label by label."""
    own = _flips(old, new, DRIFT_LEVEL)
    return _check(own, own.reason, [])


def cascade_verdicts(outputs: Sequence[Sequence[TierOutput]],
                     thresholds: Sequence[float | None]) -> list[bool | None]:
    """Per label, the cascade's verdict as a run would decide it: the first tier before the
    last whose confidence reaches its threshold, else the last tier (None: no verdict)."""
    last = len(outputs) - 1
    decided: list[bool | None] = []
    for i in range(len(outputs[0]) if outputs else 0):
        found = next((outputs[t][i].passed for t in range(last)
                      if outputs[t][i].passed is not None
                      and stands(outputs[t][i].confidence, thresholds[t])), None)
        decided.append(found if found is not None else outputs[last][i].passed)
    return decided


def compare_cascade(own_old: Mapping[str, str], own_new: Mapping[str, str],
                    tiers_old: Sequence[Mapping[str, str]],
                    tiers_new: Sequence[Mapping[str, str]]) -> DriftCheck:
    """The drift of a cascade: its own verdict and each tier's, each at `DRIFT_LEVEL` shared
    over the k + 1 tests; the reason names what drifted (or says nothing did)."""
    level = DRIFT_LEVEL / (len(tiers_old) + 1)
    own = _flips(own_old, own_new, level)
    tiers = []
    for k, (old, new) in enumerate(zip(tiers_old, tiers_new, strict=True), 1):
        f = _flips(old, new, level)
        tiers.append(TierDrift(tier=k, labels=f.labels, flips=f.flips, flip_rate=round(f.rate, 6),
                               to_pass=f.to_pass, p_value=f.p, stale=f.stale, reason=f.reason))
    drifted = ([f"the cascade's verdict: {own.reason}"] if own.stale else []) + [
        f"tier {t.tier}: {t.reason}" for t in tiers if t.stale]
    reason = "; ".join(drifted) if drifted else (
        f"the cascade's verdict: {own.reason}; each of its {len(tiers)} tiers within bounds")
    return _check(own, reason, tiers)


def versions_changed(old: Mapping[str, Sequence[str]], new: Mapping[str, Sequence[str]]
                     ) -> list[str]:
    """`model: old → new` for each model both name a provider version for, when they differ
    (a provider that names none, then or now, tells nothing)."""
    return [f"{m}: {', '.join(old[m])} → {', '.join(new[m])}" for m in sorted(old)
            if old[m] and new.get(m) and sorted(old[m]) != sorted(new[m])]
