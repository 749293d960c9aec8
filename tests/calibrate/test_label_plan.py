"""The label planner `calibrate` prints (mcptest.calibrate.label_plan): what it says when the
labels cannot correct the judge, and the Dorner–Nastl–Hardt cap."""

from __future__ import annotations

from mcptest.calibrate.label_plan import PlanAsk, plan_text
from mcptest.calibrate.record import CalibrationRecord, JudgeIdentity
from mcptest.calibrate.stats import figures


def _record(human: list[bool], judge: list[bool]) -> CalibrationRecord:
    identity = JudgeIdentity(kind="llm-judge", rubric="r", threshold=0.7, models=["m"])
    return CalibrationRecord(identity=identity, identity_hash=identity.hash, labels_file="l",
                             created_at="t", labels=len(human),
                             verdict=figures(human, list(judge)))


def test_labels_of_one_kind_cannot_correct() -> None:
    text = plan_text(_record([True] * 10, [True] * 9 + [False]), PlanAsk())
    assert "Needs labels of both kinds" in text


def test_a_coin_judge_is_beyond_correction() -> None:
    human = [True] * 10 + [False] * 10
    judge = [True, False] * 10
    assert "no better than chance" in plan_text(_record(human, judge), PlanAsk())


def test_a_judge_no_better_than_the_system_never_promises_more_than_twice() -> None:
    """Dorner, Nastl & Hardt (ICLR 2025): a judge 90% right on the labels grading a system that
    passes about 90% of the time saves at most half the labels; the planner's numbers for
    Rogan–Gladen stay under that (the cap is printed where they would not)."""
    human = [True] * 20 + [False] * 20
    judge = [True] * 20 + [False] * 16 + [True] * 4
    text = plan_text(_record(human, judge), PlanAsk(rows=2000, rate=0.9))
    line = next(x for x in text.splitlines() if x.startswith("- each label is worth"))
    ceiling = float(line.rsplit("at most ", 1)[1])
    assert ceiling <= 2.0
