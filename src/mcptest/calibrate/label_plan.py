"""What `mcptest calibrate` prints after the record: how many labels the corrected rate needs
(docs/statistics.md, "The label planner").

The planner's numbers are closed forms (mcptest.stats.label_planner) at the judge's measured
specificity and sensitivity, for a run of `rows` judged tests at a judged pass rate `rate`
(default: the judge's own pass share on these labels), and say what they assume.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.stats.judge_correction import JudgeErrors, rogan_gladen
from mcptest.stats.label_planner import (
    dorner_capped,
    labels_for_drop,
    rogan_gladen_gain,
    rogan_gladen_half_width,
    rogan_gladen_labels,
)

if TYPE_CHECKING:
    from mcptest.calibrate.record import CalibrationRecord


@dataclass(frozen=True)
class PlanAsk:
    rows: int = 100
    """Judged tests in the run the corrected rate is for."""
    rate: float | None = None
    """The judged pass rate of that run (None: the judge's pass share on the labels)."""
    half_width: float = 0.05
    drop: float = 0.10


def plan_text(record: CalibrationRecord, ask: PlanAsk) -> str:
    c = record.verdict.confusion
    errors = JudgeErrors(human_fail=c.both_fail + c.false_pass, judge_fail=c.both_fail,
                         human_pass=c.both_pass + c.false_fail, judge_pass=c.both_pass)
    q0, q1 = errors.specificity, errors.sensitivity
    head = "## Label planner\n\n"
    if q0 is None or q1 is None:
        return head + ("Needs labels of both kinds (people passed some, failed some) to correct "
                       "the judge's rate; aim for about as many fails as passes.\n")
    if q0 + q1 <= 1:
        return head + (f"The judge is no better than chance on these labels (sensitivity "
                       f"{q1:.2f} + specificity {q0:.2f} ≤ 1): no number of labels corrects "
                       "its rate.\n")
    judged = c.both_pass + c.false_pass
    total = judged + c.both_fail + c.false_fail
    p = ask.rate if ask.rate is not None else judged / total
    n = ask.rows
    have = rogan_gladen_half_width(p, n, errors)
    lines = [
        f"For a run of {n} judged tests at a judged pass rate of {p:.2f} (`--plan-rows`, "
        f"`--plan-rate`; the rate defaults to the judge's pass share on these labels), the "
        f"judge's sensitivity {q1:.2f} and specificity {q0:.2f} give a corrected rate of "
        f"{rogan_gladen(p, q0, q1):.2f}:", "",
        f"- now ({errors.human_fail} failing and {errors.human_pass} passing labels): "
        f"±{have:.3f} (95%)"]
    for what, width in ((f"±{ask.half_width:.3f} (`--plan-width`)", ask.half_width),
                        (f"a drop of {ask.drop:.2f} between two runs, seen 80% of the time "
                         f"(`--plan-drop`; ±{labels_for_drop(ask.drop):.3f} each)",
                         labels_for_drop(ask.drop))):
        plan = rogan_gladen_labels(p, n, errors, width)
        if not plan.reachable:
            lines.append(f"- {what}: out of reach with {n} judged tests: their own sampling "
                         "error is wider; run more tests")
        else:
            lines.append(f"- {what}: {plan.total} labels ({plan.fails} failing, {plan.passes} "
                         f"passing), {plan.more} more than now")
    theta = rogan_gladen(p, q0, q1)
    gain, ceiling = rogan_gladen_gain(p, n, errors)
    capped, cut = dorner_capped(ceiling, record.verdict.accuracy, theta)
    if 0 < theta < 1:
        lines.append(f"- each label is worth {gain:.2f} human-only labels in this run; with "
                     f"unlimited judged tests, at most {capped:.2f}")
    if cut:
        lines.append(f"  (capped at 2: the judge's accuracy {record.verdict.accuracy:.2f} is no "
                     "better than the graded system's pass rate, and then no correction saves "
                     "more than half the labels: Dorner, Nastl & Hardt, ICLR 2025)")
    lines.append("")
    lines.append("Assumes the run's tests are like the labelled ones for the judge (its errors "
                 "depend on the true verdict, not on which test): the labels may hold another "
                 "share of passes than the run.")
    return head + "\n".join(lines) + "\n"
