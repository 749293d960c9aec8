"""Whether a jury's jurors err together: the pairwise correlation of their errors against the
human labels, and the effective number of independent jurors (docs/calibration.md, "Jurors
that make the same mistakes").

A jury helps because its jurors' mistakes cancel; two jurors that make the same mistakes count
as one, and their agreement then makes a worse jury look more confident. An error is a verdict
that differs from the humans'. For two jurors over the labels both judged, the correlation of
their error indicators is the phi coefficient (Pearson's r on 0/1). With n jurors whose errors
correlate ρ̄ on average, the jury is worth n / (1 + (n − 1)·ρ̄) independent jurors: Kish's
design effect for equally correlated observations (Kish 1965, *Survey Sampling*, §8.2), the
arithmetic behind "nine judges, two effective votes" (Kohli).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from itertools import combinations

from pydantic import BaseModel, ConfigDict

NEAR_DUPLICATE = 0.7
"""Error correlation at or above which two jurors are called near-duplicates."""


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
    n = len(x)
    sx, sy = sum(x), sum(y)
    if n == 0 or sx in (0, n) or sy in (0, n):
        return None
    sxy = sum(1 for a, b in zip(x, y, strict=True) if a and b)
    return (n * sxy - sx * sy) / math.sqrt(sx * (n - sx) * sy * (n - sy))


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
    rhos = [max(0.0, p.correlation) for p in pairs if p.correlation is not None]
    if n < 2 or not rhos:
        return None
    mean = sum(rhos) / len(rhos)
    return round(n / (1 + (n - 1) * mean), 3)


def near_duplicates(pairs: Sequence[ErrorCorrelation], effective: float | None,
                    n: int) -> list[str]:
    """One warning per pair of jurors whose errors correlate at `NEAR_DUPLICATE` or more."""
    worth = "" if effective is None else (
        f"; the {n} jurors are worth {effective:.1f} independent ones")
    return [f"jurors {p.jurors[0]} and {p.jurors[1]} are near-duplicates: their errors "
            f"against the human labels correlate {p.correlation:.2f} ({p.both_wrong} of "
            f"{p.labels} labels wrong for both){worth}; replace one with a juror of another "
            "family"
            for p in pairs if p.correlation is not None and p.correlation >= NEAR_DUPLICATE]
