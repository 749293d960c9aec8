"""How many human labels a corrected rate needs, in closed form, and what the judge is worth.

- Rogan–Gladen (stats/judge_correction.py): the corrected rate's variance is
  [p(1−p)/n + A/m0 + B/m1]/J² with A = (1−θ)²·q0(1−q0), B = θ²·q1(1−q1), J = q0 + q1 − 1.
  For m labels in all it is smallest with m0 : m1 = √A : √B (Lee et al., arXiv 2511.21140,
  "adaptive allocation"), and then the labels' part is (√A + √B)²/m; the m that brings the
  half-width to a target follows by solving for it.
- PPI++ (stats/ppi.py): with n audited and N unlabelled rows and ρ the correlation of judge and
  human, the estimate is worth n_eff = n(n + N)/(n + (1 − ρ²)N) human labels (Angelopoulos,
  Duchi & Zrnic, arXiv 2311.01453; the `ppi-python` package's `ppi_power`); so the gain n_eff/n
  never exceeds 1/(1 − ρ²), however many rows the judge sees (Chen, Guo & Li, arXiv
  2603.16041: the saving scales with R²). The n for a target half-width inverts that.
- Dorner, Nastl & Hardt ("Limits to scalable evaluation at the frontier: LLM as judge won't beat
  twice the data", ICLR 2025, arXiv 2410.13341): when the judge is no more accurate than the
  system it grades, no correction saves more than half the labels, so the gain is capped at 2
  then, and the planner says why.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist

from mcptest.stats.judge_correction import JudgeErrors, rogan_gladen, z_of

DORNER_CAP = 2.0
"""The largest gain when the judge is no better than the graded system (Dorner et al.)."""


@dataclass(frozen=True)
class LabelPlan:
    """Labels for a target: `total` (of which `fails` the humans fail and `passes` they pass,
    for Rogan–Gladen; 0 each for PPI++, whose audit sample is drawn at random), `more` than the
    labels already held. `reachable` False when no number of labels reaches the target with this
    many judged rows (their own sampling error is already wider)."""

    total: int
    fails: int
    passes: int
    more: int
    reachable: bool = True


def _parts(p: float, errors: JudgeErrors) -> tuple[float, float, float, float]:
    """θ, A, B and J at the judge's rates smoothed as the interval smooths them (one more
    agreement and one more error per class): a judge perfect on 20 labels is not taken to be
    perfect, which would promise a width no labels can give."""
    if not errors.human_fail or not errors.human_pass:
        raise ValueError("the planner needs labels the humans passed and ones they failed")
    q0 = (errors.judge_fail + 1) / (errors.human_fail + 2)
    q1 = (errors.judge_pass + 1) / (errors.human_pass + 2)
    if q0 + q1 <= 1:
        raise ValueError("the judge must beat chance on both classes of labels")
    th = rogan_gladen(p, q0, q1)
    a = (1 - th) ** 2 * q0 * (1 - q0)
    b = th * th * q1 * (1 - q1)
    return th, a, b, q0 + q1 - 1


def rogan_gladen_labels(p: float, n: int, errors: JudgeErrors, half_width: float,
                        level: float = 0.95) -> LabelPlan:
    """Labels (best split) that bring the corrected rate's half-width to `half_width`, for a
    judged rate `p` over `n` rows."""
    _, a, b, j = _parts(p, errors)
    room = (half_width * j / z_of(level)) ** 2 - p * (1 - p) / n
    have = errors.human_fail + errors.human_pass
    if room <= 0:
        return LabelPlan(total=0, fails=0, passes=0, more=0, reachable=False)
    ra, rb = math.sqrt(a), math.sqrt(b)
    m = max(2, math.ceil((ra + rb) ** 2 / room))
    fails = math.ceil(m * ra / (ra + rb)) if ra + rb > 0 else m // 2
    return LabelPlan(total=m, fails=fails, passes=max(m - fails, 0), more=max(m - have, 0))


def rogan_gladen_half_width(p: float, n: int, errors: JudgeErrors, level: float = 0.95
                            ) -> float:
    """The delta-method half-width at the labels held (the planner's own yardstick)."""
    _, a, b, j = _parts(p, errors)
    var = (p * (1 - p) / n + a / errors.human_fail + b / errors.human_pass) / (j * j)
    return z_of(level) * math.sqrt(var)


def rogan_gladen_gain(p: float, n: int, errors: JudgeErrors) -> tuple[float, float]:
    """(gain, ceiling): how many human labels alone the corrected rate is worth per label held
    (θ(1−θ)/variance, over m0 + m1), and that gain as the judged rows grow without end."""
    th, a, b, j = _parts(p, errors)
    m0, m1 = errors.human_fail, errors.human_pass
    labels_part = a / m0 + b / m1
    var = (p * (1 - p) / n + labels_part) / (j * j)
    worth = th * (1 - th)
    m = m0 + m1
    if var == 0 or worth == 0:
        return 1.0, 1.0
    return worth / var / m, worth / (labels_part / (j * j)) / m


def ppi_effective(n: int, big_n: int, rho: float) -> float:
    """What n audited labels and N judged rows are worth in human labels."""
    return n * (n + big_n) / (n + (1 - rho * rho) * big_n)


def ppi_ceiling(rho: float) -> float:
    """The gain's limit as N grows: 1/(1 − ρ²)."""
    return math.inf if abs(rho) >= 1 else 1 / (1 - rho * rho)


def ppi_labels(variance: float, rho: float, rows: int, half_width: float, have: int = 0,
               level: float = 0.95) -> LabelPlan:
    """Audited labels for a PPI++ half-width when the audit sample is drawn from `rows` judged
    rows in all: humans alone would need n0 = z²·σ²/w² labels; with the judge,
    n = n0·T(1 − ρ²)/(T − ρ²·n0) of the T rows (`ppi-python`'s `ppi_power` with `n_max`).
    Unreachable when n0 exceeds the rows: even labelling them all would not do."""
    n0 = (z_of(level) / half_width) ** 2 * variance
    if n0 > rows:
        return LabelPlan(total=math.ceil(n0), fails=0, passes=0,
                         more=max(math.ceil(n0) - have, 0), reachable=False)
    n = max(2, math.ceil(n0 * rows * (1 - rho * rho) / (rows - rho * rho * n0)))
    return LabelPlan(total=n, fails=0, passes=0, more=max(n - have, 0))


def labels_for_drop(drop: float, power: float = 0.8, level: float = 0.95) -> float:
    """The half-width (at `level`) a rate needs for a drop of `drop` between two such rates to
    be detected with probability `power` by a one-sided test at 1 − level: the two rates'
    standard errors add in quadrature, so each needs se ≤ drop/((z_α + z_β)·√2)."""
    z_a = NormalDist().inv_cdf(level)
    z_b = NormalDist().inv_cdf(power)
    se = drop / ((z_a + z_b) * math.sqrt(2))
    return z_of(level) * se


def dorner_capped(gain: float, judge_accuracy: float | None, system_accuracy: float | None
                  ) -> tuple[float, bool]:
    """The gain, capped at 2 when the judge is no more accurate than the graded system
    (whether the cap applied)."""
    if judge_accuracy is None or system_accuracy is None or judge_accuracy > system_accuracy:
        return gain, False
    return min(gain, DORNER_CAP), gain > DORNER_CAP
