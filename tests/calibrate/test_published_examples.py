"""Every statistic mcptest reports, checked against a worked example published with it.

Sources (the data below are copied from them):
- Krippendorff, K. (2011). *Computing Krippendorff's Alpha-Reliability*. Annenberg School for
  Communication, University of Pennsylvania, Departmental Papers 43, section C ("nominal data,
  any number of observers, missing data"): 4 observers, 12 units; alpha nominal 0.743, interval
  0.849 (https://repository.upenn.edu/asc_papers/43).
- Cohen's kappa, the 50-item example of Wikipedia's "Cohen's kappa" article ("Simple example":
  20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no; p_o = 0.7, p_e = 0.5, kappa = 0.40).
- Newcombe, R. G. (1998). Two-sided confidence intervals for the single proportion: comparison
  of seven methods. *Statistics in Medicine* 17, 857–872, Table II, method 3 (Wilson's score
  interval): 81/263 → 0.2553–0.3662, 15/148 → 0.0624–0.1605, 0/20 → 0–0.1611,
  1/29 → 0.0061–0.1718.
- Fisher, R. A. (1935). *The Design of Experiments*, ch. II (the lady tasting tea): 8 cups, 4
  with milk first, all 4 picked right by chance with probability 1/70.
- Chen, M. et al. (2021). Evaluating Large Language Models Trained on Code, arXiv:2107.03374,
  §2.1 and Figure 3: the unbiased pass@k from n samples with c correct, computed stably as
  1 − ∏_{i=n−c+1}^{n} (1 − k/i); the paper samples n = 200 per problem and reports k up to 100.
- Benjamini, Y. & Hochberg, Y. (1995). Controlling the false discovery rate. *JRSS B* 57,
  289–300, §4: the 15 p-values of Neuhaus et al. (1992); at q = 0.05 the procedure rejects the
  four smallest (Bonferroni only three).
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from mcptest.calibrate.stats import cohen_kappa
from mcptest.compare.fisher import fisher_greater
from mcptest.grade.agreement import krippendorff_alpha_interval
from mcptest.grade.agreement_nominal import nominal_alpha
from mcptest.grade.repeated_row import pass_at_k
from mcptest.stats.fdr import adjusted, benjamini_hochberg
from mcptest.stats.intervals import wilson

_ = None
KRIPPENDORFF_2011 = [  # observers A–D (rows), units 1–12 (columns), "." missing
    [1, 2, 3, 3, 2, 1, 4, 1, 2, _, _, _],
    [1, 2, 3, 3, 2, 2, 4, 1, 2, 5, _, 3],
    [_, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, _],
    [1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, _],
]


def test_krippendorff_2011_nominal_and_interval_alpha() -> None:
    units = [[str(row[u]) for row in KRIPPENDORFF_2011 if row[u] is not None]
             for u in range(12)]
    nominal = nominal_alpha([u for u in units if len(u) >= 2], categories=5)
    assert nominal is not None and round(nominal, 3) == 0.743
    interval = krippendorff_alpha_interval(KRIPPENDORFF_2011)
    assert interval is not None and round(interval, 3) == 0.849


def test_cohens_kappa_on_the_classic_50_item_table() -> None:
    pairs = [(True, True)] * 20 + [(True, False)] * 5 + [(False, True)] * 10 + \
        [(False, False)] * 15
    kappa = cohen_kappa([a for a, _ in pairs], [b for _, b in pairs])
    assert kappa == pytest.approx(0.40, abs=1e-12)


@pytest.mark.parametrize(("hits", "of", "low", "high"), [
    (81, 263, 0.2553, 0.3662), (15, 148, 0.0624, 0.1605), (0, 20, 0.0, 0.1611),
    (1, 29, 0.0061, 0.1718),
])
def test_newcombes_wilson_intervals(hits: int, of: int, low: float, high: float) -> None:
    ends = wilson(hits, of)
    assert ends is not None
    assert (round(ends[0], 4), round(ends[1], 4)) == (low, high)


def test_fishers_lady_tasting_tea() -> None:
    # rows: cups with milk first / tea first; columns: she said milk first / tea first
    assert Fraction(fisher_greater(4, 0, 0, 4)).limit_denominator(1000) == Fraction(1, 70)
    assert fisher_greater(3, 1, 1, 3) == pytest.approx(17 / 70)  # 3 of 4 right: 16/70 + 1/70


def _chen_stable(n: int, c: int, k: int) -> float:
    """Chen et al. (2021), Figure 3, as printed (numpy replaced by math.prod)."""
    if n - c < k:
        return 1.0
    return 1.0 - math.prod(1.0 - k / i for i in range(n - c + 1, n + 1))


@pytest.mark.parametrize("k", [1, 10, 100])
def test_pass_at_k_at_n_200_equals_chens_estimator(k: int) -> None:
    for c in range(201):
        assert pass_at_k(200, c, k) == pytest.approx(_chen_stable(200, c, k), abs=1e-12)
    assert pass_at_k(200, 0, 100) == 0.0
    assert pass_at_k(200, 101, 100) == 1.0  # 99 failures cannot fill 100 draws
    assert pass_at_k(200, 50, 1) == pytest.approx(0.25)


NEUHAUS = [0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.3240,
           0.4262, 0.5719, 0.6528, 0.7590, 1.0000]


def test_benjamini_hochberg_1995_example() -> None:
    assert benjamini_hochberg(NEUHAUS, 0.05) == [True] * 4 + [False] * 11
    assert sum(p <= 0.05 / 15 for p in NEUHAUS) == 3  # Bonferroni


def test_bh_adjusted_p_values_equal_scipys() -> None:
    from scipy.stats import false_discovery_control  # at use: not in every worker

    rng = random.Random(26)
    for _ in range(200):
        ps = [rng.random() ** rng.choice((1, 3)) for _ in range(rng.randint(1, 40))]
        ours = adjusted(ps)
        theirs = false_discovery_control(ps, method="bh")
        assert ours == pytest.approx(list(theirs), abs=1e-12)
        for q in (0.01, 0.05, 0.2):
            assert benjamini_hochberg(ps, q) == [a <= q for a in ours]
