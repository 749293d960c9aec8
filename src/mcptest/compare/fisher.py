"""Fisher's exact test on a 2×2 table of pass counts, one-sided.

With repeats on both sides, "did the pass rate drop?" is a question about two small binomial
samples; Fisher's exact test answers it without a large-sample approximation, which matters at
N = 3..10 (docs/baseline.md, "When is it a regression"). The p-value is the hypergeometric
upper tail, summed exactly with integers: scipy is not a runtime dependency, and its
`scipy.stats.fisher_exact(table, alternative="greater")` is what the tests check this against.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def fisher_greater(a: int, b: int, c: int, d: int) -> float:
    """P(X ≥ a) for the table [[a, b], [c, d]] with its margins fixed.

    Rows are the baseline and the new run, columns passed and failed: a small p says the
    baseline passed more often than chance would explain, i.e. the new run is worse.
    """
    if min(a, b, c, d) < 0:
        raise ValueError("counts must not be negative")
    n, row1, col1 = a + b + c + d, a + b, a + c
    if n == 0:
        return 1.0
    top = min(row1, col1)
    tail = sum(comb(col1, x) * comb(n - col1, row1 - x) for x in range(a, top + 1))
    return float(min(Fraction(tail, comb(n, row1)), Fraction(1)))


def worse(old_passed: int, old_runs: int, new_passed: int, new_runs: int) -> float:
    """p-value of "the new run passes less often than the baseline"."""
    return fisher_greater(old_passed, old_runs - old_passed, new_passed, new_runs - new_passed)


def repeats_to_detect(old_rate: float, new_rate: float, q: float, most: int = 100) -> int | None:
    """The fewest repetitions per side at which a drop from `old_rate` to `new_rate` (the pass
    counts rounded from the rates) would be significant below `q` on its own; None when even
    `most` (the largest `repeat:`) would not do. A row compared with many others needs at least
    this many (Benjamini–Hochberg asks more of all but its smallest p-value)."""
    if new_rate >= old_rate:
        return None
    for n in range(2, most + 1):
        a, c = round(old_rate * n), round(new_rate * n)
        if c < a and worse(a, n, c, n) < q:
            return n
    return None
