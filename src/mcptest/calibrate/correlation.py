"""Whether a jury's jurors err together: the pairwise correlation of their errors against the
human labels, and the effective number of independent jurors (docs/calibration.md, "Jurors
that make the same mistakes").

A jury helps because its jurors' mistakes cancel; two jurors that make the same mistakes count
as one, and their agreement then makes a worse jury look more confident. An error is a verdict
that differs from the humans'. For two jurors over the labels both judged, the correlation of
their error indicators is the phi coefficient (Pearson's r on 0/1). With n jurors whose errors
correlate ρ̄ on average, the jury is worth n / (1 + (n − 1)·ρ̄) independent jurors: Kish's
design effect for equally correlated observations (Kish 1965, *Survey Sampling*, §8.2), the
arithmetic behind "nine judges, two effective votes" (Kohli). `grade/juror_independence.py`
gives every jury of a run the same figure (from this record, or from the run's votes).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING

from pydantic import BaseModel, ConfigDict

from mcptest.grade.juror_independence import design_effect

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

CORRELATED_ERRORS = 0.3
"""Error correlation at or above which a pair of jurors is said to err together: where the
simulation of bench/bench_jurors.py (tests/support/juror_sim.py) shows one such pair among three
jurors misleading the run-level band in half the runs or more (its α above independent jurors'
while the jury's accuracy is below theirs; docs/jury.md, "Jurors that err together"). It was
0.7, which let a pair at 0.58 raise α from 0.40 to 0.55 while the jury got worse, unwarned."""
SHARED_ERRORS = 0.15
"""Mean error correlation (ρ̄) at or above which the jurors are said to err together even when
no one pair reaches `CORRELATED_ERRORS`: where the same simulation, with every pair of three
jurors correlated alike (a blind spot they share), shows the band misleading."""


class ErrorCorrelation(BaseModel):
    """Two jurors' errors against the humans, over the labels both judged."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    jurors: tuple[str, str]
    correlation: float | None
    """Phi of the error indicators; None when one of them never erred (or always did)."""
    labels: int
    errors: tuple[int, int]
    """Each juror's errors over those labels."""
    both_wrong: int


def _phi(x: Sequence[bool], y: Sequence[bool]) -> float | None:
    """Pearson's r of two 0/1 series (numpy); None when either never varies."""
    n = len(x)
    if n == 0 or sum(x) in (0, n) or sum(y) in (0, n):
        return None
    import numpy as np  # only a jury's calibration pays for it

    return float(np.corrcoef(np.asarray(x, dtype=float), np.asarray(y, dtype=float))[0, 1])


def error_correlations(human: Sequence[bool], seats: Mapping[str, Sequence[bool | None]]
                       ) -> list[ErrorCorrelation]:
    """Every pair of jurors (in the order written): how their errors against `human` go
    together, over the labels both gave a verdict on."""
    out = []
    for a, b in combinations(seats, 2):
        both = [(h, va, vb) for h, va, vb in zip(human, seats[a], seats[b], strict=True)
                if va is not None and vb is not None]
        ea = [va != h for h, va, _ in both]
        eb = [vb != h for h, _, vb in both]
        phi = _phi(ea, eb)
        out.append(ErrorCorrelation(
            jurors=(a, b), correlation=None if phi is None else round(phi, 6),
            labels=len(both), errors=(sum(ea), sum(eb)),
            both_wrong=sum(1 for x, y in zip(ea, eb, strict=True) if x and y)))
    return out


def effective_jurors(n: int, pairs: Sequence[ErrorCorrelation]) -> float | None:
    """n / (1 + (n − 1)·ρ̄), ρ̄ the mean of the defined pairwise error correlations, negative
    ones counted as 0 (jurors whose errors avoid each other are not worth more than n)."""
    return design_effect(n, [p.correlation for p in pairs if p.correlation is not None])


def erring_together(pairs: Sequence[ErrorCorrelation], effective: float | None,
                    n: int) -> list[str]:
    """One warning per pair of jurors whose errors correlate at `CORRELATED_ERRORS` or more;
    without such a pair, one when their mean correlation reaches `SHARED_ERRORS`: either way
    their agreement makes the band read higher than the jury's accuracy earns."""
    worth = "" if effective is None else (
        f"; the {n} jurors are worth {effective:.1f} independent ones")
    warned = [f"jurors {p.jurors[0]} and {p.jurors[1]} err together: their errors against the "
              f"human labels correlate {p.correlation:.2f} ({p.both_wrong} of {p.labels} labels "
              f"wrong for both; a band overstates the jury from {CORRELATED_ERRORS}){worth}; "
              "replace one with a juror of another family"
              for p in pairs if p.correlation is not None and p.correlation >= CORRELATED_ERRORS]
    rhos = [max(0.0, p.correlation) for p in pairs if p.correlation is not None]
    mean = sum(rhos) / len(rhos) if rhos else 0.0
    if not warned and len(rhos) > 1 and mean >= SHARED_ERRORS:
        warned.append(f"the {n} jurors err together: their errors against the human labels "
                      f"correlate {mean:.2f} on average (a band overstates the jury from "
                      f"{SHARED_ERRORS}){worth}; replace some with jurors of other families")
    return warned
