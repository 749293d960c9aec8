"""The matcher kinds: the one table (docs/architecture.md, "Adding a matcher kind").

Every other list of kinds derives from `MATCHERS`: the suite loader's union (and with it the
published schema), the kinds that are matchers inside a `tools-called` argument pattern, the
judged kinds, the deterministic dispatch (`grade/deterministic.py`) and the judged graders
(`judging/graders.py`). An entry names its grader as `module:function`, imported on first use by
the layer that grades (`grade/` for a deterministic kind, `judging/` for a judged one): the loader
never imports a grader, and a run imports only the graders its suites use.
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, TypeAlias, Union

from pydantic import BaseModel, Discriminator, Tag, TypeAdapter

from mcptest.suite.models.composite import AllMatcher, AnyMatcher, NotMatcher
from mcptest.suite.models.kind_aliases import MATCHER_KIND_ALIASES
from mcptest.suite.models.matchers import (
    ContainsMatcher,
    CustomJudgeMatcher,
    EvalRubricMatcher,
    ExactMatcher,
    LlmJudgeMatcher,
    LlmJuryMatcher,
    RegexMatcher,
    SchemaMatcher,
)
from mcptest.suite.models.scoring import SameShapeMatcher
from mcptest.suite.models.trajectory import SimilarMatcher, ToolsCalledMatcher


@dataclass(frozen=True)
class MatcherKind:
    """One matcher kind: its key, its model, its grader, and where it may stand."""

    name: str
    """The one spelling (reports and docs use it); an older one is in `kind_aliases.py`."""
    model: type[BaseModel]
    grader: str
    """`module:function`. Deterministic: `(matcher, value) -> Verdict`; judged: an async
    function of one `grade.judged_call.JudgedCall` (`llm-judge`'s runs its cascade too)."""
    judged: bool = False
    """Graded in the judging tier (a model call, or a custom judge): never inside `not`."""
    of_values: bool = True
    """It checks one value, so it is also a matcher inside a `tools-called` argument pattern
    (`tools-called` itself checks a trajectory)."""


_GRADE = "mcptest.grade.deterministic"
MATCHERS: tuple[MatcherKind, ...] = (
    MatcherKind("exact", ExactMatcher, f"{_GRADE}:match_exact"),
    MatcherKind("contains", ContainsMatcher, f"{_GRADE}:match_contains"),
    MatcherKind("regex", RegexMatcher, f"{_GRADE}:match_regex"),
    MatcherKind("schema", SchemaMatcher, f"{_GRADE}:match_schema"),
    MatcherKind("not", NotMatcher, f"{_GRADE}:match_not"),
    MatcherKind("all", AllMatcher, f"{_GRADE}:match_all"),
    MatcherKind("any", AnyMatcher, f"{_GRADE}:match_any"),
    MatcherKind("tools-called", ToolsCalledMatcher, "mcptest.grade.tools_called:grade_tools_called",
                of_values=False),
    MatcherKind("similar", SimilarMatcher, "mcptest.grade.similarity:grade_similar"),
    MatcherKind("same-shape", SameShapeMatcher, "mcptest.grade.shape:grade_same_shape"),
    MatcherKind("llm-judge", LlmJudgeMatcher, "mcptest.grade.escalation:grade_llm_judge",
                judged=True, of_values=False),
    MatcherKind("llm-jury", LlmJuryMatcher, "mcptest.grade.llm_matchers:grade_llm_jury",
                judged=True, of_values=False),
    MatcherKind("eval-rubric", EvalRubricMatcher, "mcptest.evals.assertions:grade_eval_rubric",
                judged=True, of_values=False),
    MatcherKind("custom-judge", CustomJudgeMatcher, "mcptest.evals.assertions:grade_custom",
                judged=True, of_values=False),
)
"""The table: one entry per kind, in the order docs and error messages list them."""

MATCHER_KINDS: tuple[str, ...] = tuple(k.name for k in MATCHERS)
"""The one spelling of each kind (docs/suites.md, "Matchers"): the one reports and docs use."""
LLM_MATCHER_KINDS: frozenset[str] = frozenset(k.name for k in MATCHERS if k.judged)
"""Kinds graded in the judging tier (custom judges too, though they may call no model)."""
VALUE_MATCHER_KINDS: frozenset[str] = frozenset(k.name for k in MATCHERS if k.of_values)
"""Kinds that are matchers inside a `tools-called` argument pattern."""
KIND_OF_MODEL: dict[type[BaseModel], MatcherKind] = {k.model: k for k in MATCHERS}


def canonical_kind(key: str) -> str:
    """A matcher key as the suite wrote it → its kind (`tools_called` → `tools-called`)."""
    return MATCHER_KIND_ALIASES.get(key, key)


def matcher_kind(m: BaseModel) -> str:
    """The YAML key of a matcher model (`exact`, `llm-jury`, …)."""
    return KIND_OF_MODEL[type(m)].name


def load_grader(kind: MatcherKind) -> Any:
    """The kind's grader function, imported by the grading layer on first use."""
    module, _, name = kind.grader.partition(":")
    return getattr(importlib.import_module(module), name)


def _children(m: BaseModel) -> list[BaseModel]:
    """The matchers a composite holds (`not`, `all`, `any`)."""
    out: list[BaseModel] = []
    for name in type(m).model_fields:
        value = getattr(m, name)
        for v in value if isinstance(value, list) else [value]:
            if type(v) in KIND_OF_MODEL:
                out.append(v)
    return out


def is_llm_matcher(m: BaseModel) -> bool:
    """True when the matcher, or anything inside it, needs a model call."""
    kind = KIND_OF_MODEL[type(m)]
    return kind.judged or (kind.of_values and any(is_llm_matcher(c) for c in _children(m)))


def _discriminate(v: Any) -> str | None:
    if isinstance(v, dict):
        keys = [canonical_kind(k) for k in v if canonical_kind(k) in MATCHER_KINDS]
        return keys[0] if len(v) == 1 and keys else None
    if isinstance(v, BaseModel):
        return matcher_kind(v)
    return None


if TYPE_CHECKING:
    Matcher: TypeAlias = BaseModel
    """Any matcher model of the table (type checkers see the common base)."""
else:
    Matcher = Annotated[
        Union[tuple(Annotated[k.model, Tag(k.name)] for k in MATCHERS)],  # noqa: UP007
        Discriminator(
            _discriminate,
            custom_error_type="matcher_kind",
            custom_error_message=(
                "a matcher is a mapping with exactly one of: " + ", ".join(MATCHER_KINDS)
            ),
        ),
    ]

for _m in (NotMatcher, AllMatcher, AnyMatcher):
    _m.model_rebuild(_types_namespace={"Matcher": Matcher})



@functools.cache
def matcher_adapter() -> TypeAdapter[Any]:
    """Validates one matcher on its own (a value inside a `tools-called` argument pattern);
    built on first use, as most runs never need it."""
    return TypeAdapter(Matcher)
