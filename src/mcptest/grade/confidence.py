"""How sure one tier of an escalation cascade is of its verdict, and whether its verdict stands.

Confidence is read from the tier's own output: how far its value sits from the line that turns it
into pass or fail, as a share of the room on that side. For a judge the value is its score and the
line the rubric's threshold; for a jury it is the weighted share of decisive jurors that passed
and the line its quorum. 0 is on the line, 1 is as far as it can go (a score of 0 or 1, a
unanimous jury). A tier's verdict stands when its confidence reaches the threshold its
calibration record holds (docs/cascade.md, "Trust or escalate"); one rule serves the run and
`mcptest calibrate`, so what was calibrated is what runs.
"""

from __future__ import annotations


def margin(value: float, line: float) -> float:
    """The distance of `value` from `line`, as a share of the room on its side (0..1)."""
    if value >= line:
        room = 1.0 - line
        return 1.0 if room <= 0 else min(1.0, (value - line) / room)
    return 1.0 if line <= 0 else min(1.0, (line - value) / line)


def stands(confidence: float | None, threshold: float | None) -> bool:
    """A tier's verdict stands when it has a confidence and the record a threshold it reaches;
    a tier without a threshold (none found, or no record) is never trusted."""
    return confidence is not None and threshold is not None and confidence >= threshold
