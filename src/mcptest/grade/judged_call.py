"""What a judged grader is given (the table's judged kinds, `suite/models/matcher_kinds.py`):
one value, so every grader has one signature and a new one needs no change to the caller."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcptest.grade.escalation import Thresholds
    from mcptest.llm.engine import JudgeEngine
    from mcptest.plan import PlannedAssertion, PlannedTest


@dataclass(frozen=True)
class JudgedCall:
    test: PlannedTest
    planned: PlannedAssertion
    candidate: Any
    """The target's value, redacted when the run asks for it (docs/judges.md)."""
    engine: JudgeEngine
    response: Any = None
    """Everything the test produced (a custom judge's metadata reads it)."""
    thresholds: Callable[[], Thresholds] | None = None
    """The tier thresholds the assertion's calibration record holds, read only by a cascade
    (`llm-judge` with `escalate:`); None: uncalibrated."""
