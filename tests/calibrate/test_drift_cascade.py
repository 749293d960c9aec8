"""The drift of an `escalate:` cascade, as pure arithmetic (calibrate/drift.py): the cascade's
own verdict recomputed through the record's thresholds, and k + 1 comparisons sharing the level."""

from __future__ import annotations

import pytest

from mcptest.calibrate.cascade import TierOutput
from mcptest.calibrate.drift import DRIFT_LEVEL, cascade_verdicts, compare_cascade


def test_the_first_tier_sure_enough_decides_else_the_last() -> None:
    cheap = [TierOutput(True, 0.9), TierOutput(False, 0.1), TierOutput(None), TierOutput(True, 0.9)]
    jury = [TierOutput(False, 0.5), TierOutput(True, 0.5), TierOutput(True, 0.5),
            TierOutput(None)]
    assert cascade_verdicts([cheap, jury], [0.5, None]) == [True, True, True, True]
    assert cascade_verdicts([cheap, jury], [0.05, None]) == [True, False, True, True]
    assert cascade_verdicts([cheap, jury], [None, None]) == [False, True, True, None]


def _verdicts(n: int, fail_from: int = 10**9) -> dict[str, str]:
    return {f"l{k}": "fail" if k >= fail_from else "pass" for k in range(n)}


def test_a_tier_that_moved_makes_the_cascade_stale_though_its_verdict_did_not() -> None:
    same = _verdicts(60)
    moved = _verdicts(60, fail_from=55)  # 5 of 60 to fail: 8%, under the flip bound
    check = compare_cascade(same, same, [same, same], [same, moved])
    assert check.flips == 0 and check.tiers[0].flips == 0 and check.tiers[1].flips == 5
    # McNemar p = 2·0.5⁵ = 0.0625: drift alone at 0.05 would miss it too; at 0.05/3 it is
    # within bounds, so the flip rate is what catches a larger move
    assert check.tiers[1].p_value == pytest.approx(0.0625) and not check.stale
    assert check.reason == ("the cascade's verdict: 0 of 60 verdicts changed (0%; 0 to pass, 0 "
                            "to fail), McNemar p = 1: within bounds; each of its 2 tiers within "
                            "bounds")
    far = _verdicts(60, fail_from=50)  # 10 of 60: 17%
    check = compare_cascade(same, same, [same, same], [same, far])
    assert check.stale and check.tiers[1].stale and not check.tiers[0].stale
    assert check.reason.startswith("tier 2: 10 of 60 verdicts changed (17%; 0 to pass, 10 to "
                                   "fail), McNemar p = 0.002: above the 10% flip rate allowed")


def test_the_level_is_shared_over_the_tiers_and_the_cascade() -> None:
    old = _verdicts(200)
    new = _verdicts(200, fail_from=192)  # 8 of 200 (4%): McNemar p = 0.0078
    check = compare_cascade(old, new, [old], [old])
    assert check.stale and check.reason.endswith(f"below {DRIFT_LEVEL / 2:.2g}")
    new = _verdicts(200, fail_from=194)  # 6 of 200: p = 0.031, below 0.05 but not 0.025
    assert not compare_cascade(old, new, [old], [old]).stale
