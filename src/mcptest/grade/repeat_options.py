"""How a run repeats its tests and what a repeated row's gate holds (`--repeat`,
`min_pass_rate`, `min_pass_rate_on`, `--repeat adaptive:MAX`).

Apart from `repeated_row.py` so the run's options name them without importing the row merge and
the report models (docs/architecture.md, "Costs").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

DEFAULT_MIN_PASS_RATE = 1.0
ADAPTIVE_MOST = 10
"""Runs an adaptive row may take at most when nothing says otherwise (the fixed count it
stands in for), unless its gate needs more (`adaptive_most`)."""
ADAPTIVE_CEILING = 100
"""The most runs `--repeat adaptive:MAX` may ask, and the most a row's own default takes."""
GateOn = Literal["estimate", "lower_bound", "corrected_lower_bound"]
DEFAULT_GATE_ON: GateOn = "lower_bound"
"""Gates hold the lower end of the row's interval unless asked for the estimate."""


@dataclass(frozen=True)
class RepeatOptions:
    """How often tests repeat, and how their repetitions gate (docs/agents.md, "Repeats and
    pass@k")."""

    repeat: int = 1
    """Repetitions of a test without its own `repeat:`."""
    min_pass_rate: float = DEFAULT_MIN_PASS_RATE
    min_pass_rate_on: GateOn = DEFAULT_GATE_ON
    """Gate on the lower end of the row's interval (the default), or on the pass rate itself
    (`estimate`)."""
    cache_repeats: bool = False
    """Let repetitions after the first read the judge cache."""
    adaptive: int | None = None
    """`--repeat adaptive:MAX`: every test repeats adaptively, at most MAX runs (a test's own
    `repeat: adaptive` takes MAX from here); 0: adaptively, each row at most `adaptive_most`
    runs."""
    baseline_passed: dict[str, bool] = field(default_factory=dict)
    """Per row id of the baseline: whether it passed there (what adaptive repeats compare a
    first run with)."""


def adaptive_most(given: int | None, min_rate: float, gate_on: GateOn) -> int:
    """The most runs an adaptive row may take: MAX where one was given; else `ADAPTIVE_MOST`,
    or, when its gate holds a lower bound, the fewest runs at which a row that failed once (a
    failure is what opens most rows) still meets it by passing every later run (Wilson's lower
    end of 9 of 10 is 0.60: a `min_pass_rate` of 0.8 needs 24 of 25), at most
    `ADAPTIVE_CEILING`."""
    if given:
        return given
    if gate_on == "estimate" or min_rate >= 1.0:
        return ADAPTIVE_MOST
    from mcptest.stats.sequential import fixed_need

    return next((n for n in range(ADAPTIVE_MOST, ADAPTIVE_CEILING + 1)
                 if fixed_need(min_rate, n, on_lower_bound=True) <= n - 1), ADAPTIVE_CEILING)
