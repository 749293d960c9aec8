"""What a repeated row's gate held, in one line the row's message and every reporter share
(docs/baseline.md, "The gate holds the interval"):

    pass rate 9/10 = 0.90, 95% lower bound 0.60 < min_pass_rate 0.80: not met
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mcptest.report.measures import RepeatStats

_HELD = {
    "lower_bound": "95% lower bound",
    "corrected_lower_bound": "judge-corrected 95% lower bound",
}


def gate_held(stats: RepeatStats) -> str:
    """What the gate held against `min_pass_rate` and whether it was met:
    `95% lower bound 0.60 < min_pass_rate 0.80: not met`."""
    floor = f"min_pass_rate {stats.min_pass_rate:.2f}"
    if stats.pass_rate is None:
        return f"not measured, {floor}: not met"
    verdict = "met" if stats.met else "not met"
    sign = "≥" if stats.met else "<"
    if stats.gated_on in _HELD and stats.gated_value is not None:
        return f"{_HELD[stats.gated_on]} {stats.gated_value:.2f} {sign} {floor}: {verdict}"
    if stats.gated_on == "estimate" and stats.min_pass_rate_on == "estimate":
        return f"estimate {stats.pass_rate:.2f} {sign} {floor} (asked for): {verdict}"
    if stats.gated_on == "estimate":
        return f"every scored run must pass (no interval reaches 1; the count decides): {verdict}"
    # a report written before `gated_on` existed
    return f"{floor} on the {stats.min_pass_rate_on.replace('_', ' ')}: {verdict}"


def gate_text(stats: RepeatStats) -> str:
    """`pass rate 9/10 = 0.90, 95% lower bound 0.60 < min_pass_rate 0.80: not met`."""
    if stats.pass_rate is None:
        return gate_held(stats)
    return f"pass rate {stats.passed}/{stats.measured} = {stats.pass_rate:.2f}, {gate_held(stats)}"
