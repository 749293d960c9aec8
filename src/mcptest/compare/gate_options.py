"""What a comparison with a baseline fails on (`--alpha`, `--fail-on`, `--max-score-drop`).

Apart from `classify.py` so the run's options (`api/options.py`) and the CLI's flags name them
without importing the comparison and the report models it reads (docs/architecture.md, "Costs").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

DEFAULT_ALPHA = 0.05
"""q: the false discovery rate across tested rows (docs/baseline.md)."""
FailOn = Literal["regressed", "any-failure"]


@dataclass(frozen=True)
class CompareOptions:
    """How a run is compared with its baseline, and when that fails the run (docs/baseline.md)."""

    alpha: float = DEFAULT_ALPHA
    """q of Benjamini–Hochberg across the tested rows."""
    fail_on: FailOn = "any-failure"
    fail_on_not_measured: bool = False
    max_score_drop: float | None = None
    """A comparable row whose judged score fell by more than this fails the gate (a row's own
    `max_score_drop`, from its test or suite, wins)."""
