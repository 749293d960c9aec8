"""The grader of a judged matcher kind, found in the one table of kinds
(`suite/models/matcher_kinds.py`, docs/architecture.md).

Deterministic kinds are pure functions of a value, dispatched by `mcptest.grade.deterministic`;
the judged ones (`judged=True` in the table) are graded here, through the judge engine. Each
grader is imported on first use: a run imports only the graders its suites use.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from mcptest.grade.judged_call import JudgedCall
from mcptest.report.models import AssertionResult
from mcptest.suite.models.matcher_kinds import KIND_OF_MODEL, load_grader

if TYPE_CHECKING:
    from pydantic import BaseModel

JudgedGrader = Callable[[JudgedCall], Awaitable[AssertionResult]]
"""A judged kind's grader: one `JudgedCall` in, the assertion's result out."""


@functools.cache
def _grader(model: type[BaseModel]) -> JudgedGrader:
    kind = KIND_OF_MODEL.get(model)
    if kind is None or not kind.judged:
        raise TypeError(f"{model.__name__} is not a judged matcher")
    grader: JudgedGrader = load_grader(kind)
    return grader


def grader_for(matcher: BaseModel) -> JudgedGrader:
    """The grader of a judged matcher; a deterministic one is a programming error here."""
    return _grader(type(matcher))
