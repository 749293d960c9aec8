"""Resolve what an eval wrote under `rubric:` into one concrete rubric (docs/evals.md).

Threshold precedence, most specific first: the override written next to a `ref`/`preset`, the
eval's own `threshold:`, the rubric body's `threshold:`, then 0.7.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from mcptest.errors import SuiteError
from mcptest.evals.presets import PRESET_CRITERIA
from mcptest.suite.models import RubricRef

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models import Rubric, RubricBody

DEFAULT_THRESHOLD = 0.7


@dataclass(frozen=True)
class ResolvedRubric:
    """Either a free-form `text` or a structured `body` (criteria or tree)."""

    text: str | None
    body: RubricBody | None
    threshold: float
    strict: bool
    source: str
    """Where it came from, for `--explain` and the report: `inline`, `ref:x`, `preset:x`."""

    @property
    def form(self) -> str:
        if self.body is None:
            return "free-form"
        return "tree" if self.body.tree is not None else "criteria"

    def describe(self) -> str:
        """One line a person can read (the report's `rubric` field)."""
        if self.text is not None:
            return self.text.strip()
        assert self.body is not None
        if self.body.criteria is not None:
            names = ", ".join(c.name for c in self.body.criteria)
            return f"{self.source}: criteria [{names}]"
        return f"{self.source}: decision tree"


class UnknownRubric(SuiteError, KeyError):
    """A `ref` that names no rubric (the loader reports it first; kept for direct callers)."""


def resolve_rubric(rubric: Rubric, rubrics: Mapping[str, RubricBody],
                   eval_threshold: float | None = None) -> ResolvedRubric:
    if isinstance(rubric, str):
        return ResolvedRubric(text=rubric, body=None, strict=False, source="inline",
                              threshold=_first(eval_threshold))
    if isinstance(rubric, RubricRef):
        if rubric.ref not in rubrics:
            raise UnknownRubric(f"rubric ref {rubric.ref!r} names no rubric of the suite's "
                                "`rubrics:`", key_path="rubric.ref")
        body = rubrics[rubric.ref]
        strict = body.strict if rubric.strict is None else rubric.strict
        return ResolvedRubric(text=None, body=body, strict=strict, source=f"ref:{rubric.ref}",
                              threshold=_first(rubric.threshold, eval_threshold, body.threshold))
    # a preset or an inline body: their models, loaded only by a suite that writes one
    from mcptest.suite.models import Criterion, RubricBody, RubricPreset

    if isinstance(rubric, RubricPreset):
        criteria = [*(Criterion(name=name, description=text)
                      for name, text in PRESET_CRITERIA[rubric.preset]), *rubric.criteria]
        body = RubricBody(criteria=criteria, threshold=rubric.threshold, strict=rubric.strict)
        return ResolvedRubric(text=None, body=body, strict=rubric.strict,
                              source=f"preset:{rubric.preset}",
                              threshold=_first(rubric.threshold, eval_threshold))
    return ResolvedRubric(text=None, body=rubric, strict=rubric.strict, source="inline",
                          threshold=_first(eval_threshold, rubric.threshold))


def _first(*values: float | None) -> float:
    return next((v for v in values if v is not None), DEFAULT_THRESHOLD)
