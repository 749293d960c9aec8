"""The shift check during the run: looks at a few checkpoints, so a shift is caught early
(docs/cascade.md, "When the guarantee does not apply").

Checked only after the run, a shift is found when every item has already paid for the cheap
tiers, whose verdicts are then graded again by the last tier. Here the run's tier samples grow
as the tiers answer, and the comparison of `calibrate/shift.py` is made at looks: after
`FIRST_LOOK`, twice that, four times that, … answers of the first tier, and once more at the
end. Once a look finds a difference, the rest of the run's items of that cascade skip the
earlier tiers (`judging/shift_recheck.py`). `saw` looks when the first tier's answers reach a
checkpoint (items graded one after another, as the simulation does); the run's watch instead
`add`s answers and makes each `look` once every item before the checkpoint is graded, so what a
look sees does not depend on the order answers finish in.

Several looks at growing data raise the chance of a false alarm; the overall level stays
`SHIFT_LEVEL` by spending it over the looks (an alpha-spending rule, Lan & DeMets 1983, with
the union bound in place of the looks' joint distribution): interim look j spends
`SHIFT_LEVEL / 2^(j+1)` (a quarter, an eighth, …: less than half in all, however many looks a
run makes) and the final look what the interim looks left, at least half. The spending depends
only on how many looks were made, never on what they found, so an unshifted run raises the
alarm with probability at most `SHIFT_LEVEL`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mcptest.calibrate.shift import SHIFT_LEVEL, ShiftCheck, TierSample, check_shift

if TYPE_CHECKING:
    from collections.abc import Sequence

FIRST_LOOK = 30
"""Answers of the first tier before the first look (the next at 60, 120, …)."""


@dataclass
class ShiftLooks:
    """One cascade's run, compared with its labels at each look (not thread-safe: one event
    loop feeds it)."""

    labels: Sequence[TierSample | None]
    """Each tier's sample on the labels (the record's), None where it keeps none."""
    level: float = SHIFT_LEVEL
    first: int = FIRST_LOOK
    confidences: list[list[float]] = field(default_factory=list)
    settled: list[int] = field(default_factory=list)
    looks: int = 0
    """Interim looks made."""
    spent: float = 0.0
    """The level the interim looks spent."""
    fired: ShiftCheck | None = None
    fired_after: int | None = None
    """Answers of the first tier when a look found the difference."""
    early: bool = False
    """An interim look found it (the run's remaining items could skip the earlier tiers)."""

    def __post_init__(self) -> None:
        self.confidences = [[] for _ in self.labels]
        self.settled = [0] * len(self.labels)

    def saw(self, tier: int, confidence: float, settled: bool) -> ShiftCheck | None:
        """One answer of tier `tier` (0-based) with its confidence, and whether it settled the
        item; makes a look when the first tier reaches a checkpoint. The check that fired, if
        one did (at this look or an earlier one)."""
        if self.fired is not None or not 0 <= tier < len(self.labels):
            return self.fired
        self.add(tier, confidence, settled)
        if tier == 0 and len(self.confidences[0]) == self.next_look:
            self.look()
        return self.fired

    @property
    def next_look(self) -> int:
        """How many items the next interim look covers (30, 60, 120, …)."""
        return self.first << self.looks

    def add(self, tier: int, confidence: float, settled: bool) -> None:
        """One answer of tier `tier` (0-based) into the samples, with no look (the run's watch
        makes its looks itself, when the items before a checkpoint are all graded)."""
        if self.fired is None and 0 <= tier < len(self.labels):
            self.confidences[tier].append(confidence)
            self.settled[tier] += settled

    def look(self) -> ShiftCheck | None:
        """The next interim look, at what the samples hold now; the check that fired, if one
        did (at this look or an earlier one)."""
        if self.fired is None:
            self.looks += 1
            each = self.level / 2 ** (self.looks + 1)
            self.spent += each
            self._look(each, len(self.confidences[0]))
        return self.fired

    def finish(self) -> ShiftCheck:
        """The final look at everything the run showed, at the level the interim looks left;
        or the interim look that fired."""
        if self.fired is not None:
            return self.fired
        check = check_shift(self.labels, self.samples(), self.level - self.spent)
        if check.reason() is not None:
            self.fired, self.fired_after = check, len(self.confidences[0])
        return check

    def samples(self) -> list[TierSample | None]:
        return [TierSample(list(c), s) for c, s in zip(self.confidences, self.settled,
                                                       strict=True)]

    def _look(self, level: float, seen: int) -> None:
        check = check_shift(self.labels, self.samples(), level)
        if check.reason() is not None:
            self.fired, self.fired_after, self.early = check, seen, True
