"""Load warnings: a suite that is valid but says something twice, and what we do about it.

Unlike `checks` these never stop a run; `validate` prints them and every report carries them
(`report.warnings`), each positioned as `file:line:col: key.path: message`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mcptest.suite.models import RubricBody, RubricPreset, RubricRef
from mcptest.suite.positions import format_path

if TYPE_CHECKING:
    from mcptest.suite.load import LoadedSuite


def _num(x: float) -> str:
    return f"{x:g}"


def load_warnings(loaded: LoadedSuite) -> list[str]:
    """Every warning of one loaded suite, in file order."""
    out: list[str] = []
    rubrics = loaded.suite.rubrics
    for i, spec in enumerate(loaded.suite.evals):
        if spec.threshold is None:
            continue
        rubric = spec.rubric
        own: float | None = None
        eval_wins = True
        where = "its rubric's"
        if isinstance(rubric, RubricRef):
            body = rubrics.get(rubric.ref)
            if rubric.threshold is not None:
                own, eval_wins, where = rubric.threshold, False, "the rubric reference's"
            elif body is not None and body.threshold is not None:
                own, where = body.threshold, f"rubric `{rubric.ref}`'s"
        elif isinstance(rubric, RubricPreset | RubricBody) and rubric.threshold is not None:
            own, eval_wins = rubric.threshold, not isinstance(rubric, RubricPreset)
        if own is None or own == spec.threshold:
            continue
        winner = (f"the eval's {_num(spec.threshold)} wins" if eval_wins
                  else f"{where} {_num(own)} wins")
        path = ("evals", i, "threshold")
        pos = loaded.positions.value(path)
        out.append(f"{pos}: {format_path(path)}: both the eval's `threshold` "
                   f"({_num(spec.threshold)}) and {where} ({_num(own)}) are set; {winner} "
                   "(docs/evals.md, Thresholds)")
    return out
