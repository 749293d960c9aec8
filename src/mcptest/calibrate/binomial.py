"""The exact binomial tail and the Clopper-Pearson bound the cascade's guarantee rests on.

No runtime dependency of mcptest provides them (scipy is a test dependency only), so they are
the textbook sums below, in log space so that thousands of labels neither overflow nor lose the
small terms; the tests check them against `scipy.stats.binom` and `scipy.stats.beta`
(docs/cascade.md, "The guarantee").
"""

from __future__ import annotations

import math


def binom_cdf(k: int, n: int, p: float) -> float:
    """P(X ≤ k) for X ~ Binomial(n, p): the chance of at most `k` errors in `n` items when each
    is wrong with probability `p`."""
    if n < 0 or not 0.0 <= p <= 1.0:
        raise ValueError(f"need n ≥ 0 and 0 ≤ p ≤ 1, got n={n}, p={p}")
    if k < 0:
        return 0.0
    if k >= n or p == 0.0:
        return 1.0
    if p == 1.0:
        return 0.0
    log_p, log_q = math.log(p), math.log1p(-p)
    base = math.lgamma(n + 1)
    logs = [base - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * log_p + (n - i) * log_q
            for i in range(k + 1)]
    top = max(logs)
    return min(1.0, math.exp(top) * math.fsum(math.exp(x - top) for x in logs))


def upper_bound(errors: int, n: int, delta: float) -> float:
    """The one-sided Clopper-Pearson upper bound on an error rate: the largest rate `r` under
    which seeing at most `errors` of `n` still has probability ≥ `delta`. The true rate is at
    most this with probability ≥ 1 − delta; 1.0 when nothing was seen."""
    if not 0.0 < delta < 1.0:
        raise ValueError(f"need 0 < delta < 1, got {delta}")
    if n == 0 or errors >= n:
        return 1.0
    low, high = 0.0, 1.0
    for _ in range(200):  # bisection: the tail falls as the rate rises
        mid = (low + high) / 2
        if binom_cdf(errors, n, mid) >= delta:
            low = mid
        else:
            high = mid
        if high - low < 1e-15:
            break
    return low


def rejects(errors: int, n: int, alpha: float, delta: float) -> bool:
    """Whether `errors` of `n` rule out, at level `delta`, an error rate above `alpha`: the exact
    binomial p-value P(X ≤ errors | rate alpha) is at most delta. The same as
    `upper_bound(errors, n, delta) ≤ alpha`, with one sum instead of a search."""
    return binom_cdf(errors, n, alpha) <= delta


def min_labels(alpha: float, delta: float) -> int:
    """The fewest items that can show an error rate ≤ `alpha` at level `delta` at all: even with
    no error among them, fewer leave (1 − alpha)^n above delta."""
    if not 0.0 < alpha < 1.0 or not 0.0 < delta < 1.0:
        raise ValueError(f"need 0 < alpha, delta < 1, got alpha={alpha}, delta={delta}")
    n = max(1, math.ceil(math.log(delta) / math.log1p(-alpha)))
    while n > 1 and rejects(0, n - 1, alpha, delta):
        n -= 1
    while not rejects(0, n, alpha, delta):
        n += 1
    return n


def labels_needed(error_rate: float, alpha: float, delta: float, limit: int = 100_000
                  ) -> int | None:
    """About how many items a judge that errs at `error_rate` needs before its rate can be shown
    ≤ `alpha` at level `delta`; None when it errs too often for any count (rate ≥ alpha)."""
    if error_rate >= alpha:
        return None
    n = min_labels(alpha, delta)
    while n <= limit:
        if rejects(math.floor(n * error_rate), n, alpha, delta):
            return n
        n = max(n + 1, math.ceil(n * 1.05))
    return None


def least_labels(errors: int, alpha: float, delta: float, above: int = 0,
                 near: int | None = None) -> int:
    """The fewest items, more than `above`, on which `errors` errors still show an error rate
    ≤ `alpha` at level `delta` (the test passes on every count from there on: the tail falls as
    the count grows). `near` is a guess of it, which saves work when it is close."""
    low, high = above, max(above + 1, math.ceil((errors + 1) / alpha) if near is None else near)
    step = 1
    while not rejects(errors, high, alpha, delta):  # up from the guess
        low, high, step = high, high + step, step * 2
    step = 1
    while high - step > low and rejects(errors, high - step, alpha, delta):  # down from it
        high, step = high - step, step * 2
    low = max(low, high - step)
    while high - low > 1:  # the answer is in (low, high]
        mid = (low + high) // 2
        if rejects(errors, mid, alpha, delta):
            high = mid
        else:
            low = mid
    return high
