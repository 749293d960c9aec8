"""Whether a run's items still look like the labelled ones: the assumption a cascade's guarantee
rests on (docs/cascade.md, "When the guarantee does not apply").

The guarantee of `calibrate/cascade.py` holds for items exchangeable with the labels. Nothing
in a run says whether they are, but the run shows the evidence: each tier's confidences, and the
share of what reaches it that it settles. Both are compared with what the record kept from the
labels: the confidences by a two-sample Kolmogorov–Smirnov test, the settled share by Fisher's
exact test on the 2×2 table (settled, escalated) × (labels, run), both from scipy. The level
of one comparison is shared evenly over every test it makes (Bonferroni); a run makes several,
at looks that spend `SHIFT_LEVEL` between them (`calibrate/shift_looks.py`), so an unshifted run
raises the alarm with probability at most `SHIFT_LEVEL`. A tier the run reached fewer than
`MIN_ITEMS` times is not tested: too few to tell, and the result says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence

SHIFT_LEVEL = 0.01
"""The chance that a run whose items are like the labels is said to differ (docs/cascade.md)."""
MIN_ITEMS = 20
"""Verdicts of a tier a run needs before its distribution is compared."""


@dataclass(frozen=True)
class TierSample:
    """What one tier showed, on the labels (from the record) or in the run."""

    confidences: Sequence[float]
    """Its confidence on every item that reached it with a verdict."""
    settled: int
    """Of those, how many it settled (its confidence reached the threshold)."""


@dataclass(frozen=True)
class ShiftFinding:
    tier: int
    test: str
    """`confidence` (Kolmogorov–Smirnov) or `settled share` (Fisher's exact)."""
    p_value: float


@dataclass(frozen=True)
class ShiftCheck:
    """The comparison of one cascade's run with its record."""

    findings: list[ShiftFinding]
    """Every test made, with its p-value."""
    level: float
    """Each test's level: `SHIFT_LEVEL` over the number of tests."""
    untested: list[int]
    """Tiers (1-based) the run reached too seldom to compare."""

    @property
    def shifted(self) -> list[ShiftFinding]:
        return [f for f in self.findings if f.p_value < self.level]

    def reason(self) -> str | None:
        """Why the guarantee does not apply, or None when no test found a difference."""
        if not self.shifted:
            return None
        said = "; ".join(f"tier {f.tier} {f.test} p = {f.p_value:.2g}" for f in self.shifted)
        return (f"the run's items do not look like the labelled ones ({said}, each below "
                f"{self.level:.2g}), so the calibrated guarantee does not apply here")


def check_shift(labels: Sequence[TierSample | None], run: Sequence[TierSample | None],
                level: float = SHIFT_LEVEL, min_items: int = MIN_ITEMS) -> ShiftCheck:
    """Compare each tier's run sample with its labels sample (None: the record keeps none, or
    the tier is the last and settles all it sees: only its confidences are compared)."""
    from scipy.stats import fisher_exact, ks_2samp

    pairs: list[tuple[int, TierSample, TierSample]] = []
    untested: list[int] = []
    for k, (lab, got) in enumerate(zip(labels, run, strict=True), 1):
        if lab is None or got is None or not lab.confidences:
            continue
        if len(got.confidences) < min_items:
            untested.append(k)
            continue
        pairs.append((k, lab, got))
    tests = sum(1 if lab.settled in (0, len(lab.confidences)) else 2 for _, lab, _ in pairs)
    each = level / tests if tests else level
    findings: list[ShiftFinding] = []
    for k, lab, got in pairs:
        ks = ks_2samp(list(lab.confidences), list(got.confidences), method="auto")
        findings.append(ShiftFinding(k, "confidence", float(ks.pvalue)))
        if lab.settled in (0, len(lab.confidences)):
            continue  # it settles all or nothing by construction: no share to compare
        table = [[lab.settled, len(lab.confidences) - lab.settled],
                 [got.settled, len(got.confidences) - got.settled]]
        findings.append(ShiftFinding(k, "settled share", float(fisher_exact(table).pvalue)))
    return ShiftCheck(findings, each, untested)
