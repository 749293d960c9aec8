"""Which grader grades which judged matcher kind: the one table (docs/architecture.md).

Deterministic kinds (`exact`, `contains`, `regex`, `schema`, `not`, `all`, `any`) are pure
functions of a value, dispatched by `mcptest.grade.deterministic`; every judged kind is here. A test
checks that the two tables together cover every kind of the suite schema exactly once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import BaseModel

from mcptest.evals.assertions import grade_custom, grade_eval_rubric
from mcptest.grade.llm_matchers import grade_llm_judge, grade_llm_jury
from mcptest.llm.engine import JudgeEngine
from mcptest.plan import PlannedAssertion, PlannedTest
from mcptest.report.models import AssertionResult
from mcptest.suite.models import (
    CustomJudgeMatcher,
    EvalRubricMatcher,
    LlmJudgeMatcher,
    LlmJuryMatcher,
)

JudgedGrader = Callable[[PlannedTest, PlannedAssertion, Any, JudgeEngine, Any],
                        Awaitable[AssertionResult]]
"""(test, assertion, candidate, engine, response: everything the test produced)."""

JUDGED: dict[type[BaseModel], JudgedGrader] = {
    LlmJudgeMatcher: grade_llm_judge,
    LlmJuryMatcher: grade_llm_jury,
    EvalRubricMatcher: grade_eval_rubric,
    CustomJudgeMatcher: grade_custom,
}


def grader_for(matcher: BaseModel) -> JudgedGrader:
    """The grader of a judged matcher; a deterministic one is a programming error here."""
    try:
        return JUDGED[type(matcher)]
    except KeyError:
        raise TypeError(f"{type(matcher).__name__} is not a judged matcher") from None
