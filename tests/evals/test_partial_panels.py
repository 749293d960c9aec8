"""Eval juries and panels with deferred members follow the partial-jury rule of docs/jury.md:
decided only when no verdict of the missing members could change the outcome."""

from __future__ import annotations

import pytest

from mcptest.evals.rubric import ResolvedRubric
from mcptest.evals.sample import Sample
from mcptest.evals.settle import waits as _waits
from mcptest.suite.models import EvalJudge

RUBRIC = ResolvedRubric(text="Is good.", body=None, threshold=0.7, strict=False, source="inline")


def scored(score: float) -> Sample:
    return Sample(model="m", repetition=0, score=score, passed=score >= 0.7)


@pytest.mark.parametrize(("how", "scores", "missing", "waits"), [
    ("mean", [0.9, 0.9, 0.9], 1, True),       # 0.675 if it said 0.0: below 0.7
    ("mean", [1.0, 1.0, 1.0, 1.0], 1, False),  # 0.8 at worst
    ("mean", [0.1, 0.1], 1, False),            # 0.4 at best
    ("median", [0.9, 0.9, 0.1], 1, True),      # median 0.9 now, 0.5 if it said 0.0
    ("median", [0.9, 0.9, 0.9], 1, False),     # 0.9 whatever it says
    ("majority", [0.9, 0.9, 0.9], 2, False),   # 3 of 5 at worst
    ("majority", [0.9, 0.1], 1, True),         # 2-1 or 1-2
])
def test_a_panel_waits_only_for_members_that_could_matter(
        how: str, scores: list[float], missing: int, waits: bool) -> None:
    judge = EvalJudge(panel=["a", "b"], aggregate=how)  # type: ignore[arg-type]
    why = _waits("panel", [scored(s) for s in scores], missing, RUBRIC, judge, 0.5)
    assert (why is not None) is waits, why


def test_a_panel_with_no_decisive_member_always_waits() -> None:
    assert _waits("panel", [], 2, RUBRIC, EvalJudge(panel=["a", "b"]), 0.5)


def test_a_mean_panel_waits_for_a_member_that_could_fail_a_gate() -> None:
    """Under a strict rubric a missing member could fail the gate (no perfect score) and fail
    the panel whatever the mean; four perfect scores do not settle it."""
    strict = ResolvedRubric(text="Is good.", body=None, threshold=0.7, strict=True,
                            source="inline")
    judge = EvalJudge(panel=["a", "b"], aggregate="mean")
    assert _waits("panel", [scored(1.0)] * 4, 1, strict, judge, 0.5) is not None
    assert _waits("panel", [scored(1.0)] * 4, 1, RUBRIC, judge, 0.5) is None
