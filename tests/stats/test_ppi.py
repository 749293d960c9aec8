"""PPI++ (mcptest.stats.ppi) against the reference implementation, the `ppi-python` package of
the method's authors (a dev dependency only), and a seeded simulation: with a random audit
sample the estimate is unbiased and its interval covers the truth whatever the judge."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from mcptest.stats.ppi import power_tuning, ppi_mean


@pytest.fixture(scope="module")
def ppi_py() -> Any:
    """The reference package, imported by the test that compares with it (~0.3 s of CPU), not
    at collection, which every pytest-xdist worker does."""
    return pytest.importorskip("ppi_py")


def _data(seed: int, n: int, big_n: int, theta: float, q0: float, q1: float
          ) -> tuple[list[float], list[float], list[float]]:
    rng = random.Random(seed)

    def row() -> tuple[float, float]:
        truth = rng.random() < theta
        judged = (rng.random() < q1) if truth else (rng.random() >= q0)
        return float(truth), float(judged)

    audited = [row() for _ in range(n)]
    return ([h for h, _ in audited], [j for _, j in audited],
            [row()[1] for _ in range(big_n)])


@pytest.mark.parametrize(("seed", "n", "big_n", "theta", "q0", "q1"), [
    (1, 40, 400, 0.7, 0.7, 0.95),
    (2, 100, 2000, 0.3, 0.9, 0.8),
    (3, 12, 60, 0.5, 0.6, 0.6),
    (4, 30, 30, 0.9, 0.95, 0.99),
])
@pytest.mark.parametrize("level", [0.9, 0.95])
def test_as_ppi_python_computes_it(seed: int, n: int, big_n: int, theta: float, q0: float,
                                   q1: float, level: float, ppi_py: Any) -> None:
    human, judged, unlabelled = _data(seed, n, big_n, theta, q0, q1)
    ours = ppi_mean(human, judged, unlabelled, level=level)
    assert ours is not None
    y, yhat, yu = np.array(human), np.array(judged), np.array(unlabelled)
    point = ppi_py.ppi_mean_pointestimate(y, yhat, yu)
    low, high = ppi_py.ppi_mean_ci(y, yhat, yu, alpha=1 - level)
    assert ours.rate == pytest.approx(float(np.ravel(point)[0]), abs=1e-9)
    assert (ours.low, ours.high) == pytest.approx(
        (float(np.ravel(low)[0]), float(np.ravel(high)[0])), abs=1e-9)


def test_lambda_zero_is_the_humans_alone_and_one_is_plain_ppi() -> None:
    human, judged, unlabelled = _data(5, 50, 500, 0.6, 0.8, 0.9)
    alone = ppi_mean(human, judged, unlabelled, lam=0.0)
    plain = ppi_mean(human, judged, unlabelled, lam=1.0)
    assert alone is not None and plain is not None
    assert alone.rate == pytest.approx(sum(human) / len(human))
    assert plain.rate == pytest.approx(sum(unlabelled) / len(unlabelled)
                                       + (sum(human) - sum(judged)) / len(human))
    assert 0.0 <= power_tuning(human, judged, unlabelled) <= 1.0
    assert ppi_mean(human[:1], judged[:1], unlabelled) is None


def test_a_random_audit_sample_covers_the_truth() -> None:
    """1,000 seeded runs of a lenient judge (q0 0.7, q1 0.95) at a true rate of 0.7, 200 audited
    rows and 1,000 judged (a normal interval: at 60 audited rows it covered 0.925): the 95% interval covers 0.7 within three standard errors of 95%."""
    hits = 0
    for seed in range(1000):
        human, judged, unlabelled = _data(seed, 200, 1000, 0.7, 0.7, 0.95)
        found = ppi_mean(human, judged, unlabelled)
        assert found is not None
        hits += found.low <= 0.7 <= found.high
    assert abs(hits / 1000 - 0.95) <= 0.021, hits
