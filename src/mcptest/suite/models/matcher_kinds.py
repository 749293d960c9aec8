"""The matcher kinds: the one table (docs/architecture.md, "Adding a matcher kind").

Every other list of kinds derives from `MATCHERS`: the suite loader's union (and with it the
published schema), the kinds that are matchers inside a `tools-called` argument pattern, the
judged kinds, the deterministic dispatch (`grade/deterministic.py`) and the judged graders
(`judging/graders.py`). An entry names its model as `module:Class`, imported and built when a
suite first uses the kind, and its grader as `module:function`, imported on first use by the
layer that grades (`grade/` for a deterministic kind, `judging/` for a judged one): the loader
never imports a grader, and a run builds only the matchers and graders its suites use.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeAlias

from pydantic import BaseModel, TypeAdapter

from mcptest.suite.models.kind_aliases import MATCHER_KIND_ALIASES
from mcptest.suite.models.lazy_union import LazyUnion


@dataclass(frozen=True)
class MatcherKind:
    """One matcher kind: its key, its model, its grader, and where it may stand."""

    name: str
    """The one spelling (reports and docs use it); an older one is in `kind_aliases.py`."""
    model: str
    """`module:Class`, imported and built when a suite first uses the kind (`model_of`)."""
    grader: str
    """`module:function`. Deterministic: `(matcher, value) -> Verdict`; judged: an async
    function of one `grade.judged_call.JudgedCall` (`llm-judge`'s runs its cascade too)."""
    judged: bool = False
    """Graded in the judging tier (a model call, or a custom judge): never inside `not`."""
    of_values: bool = True
    """It checks one value, so it is also a matcher inside a `tools-called` argument pattern
    (`tools-called` itself checks a trajectory)."""


_GRADE = "mcptest.grade.deterministic"
_LEAF = "mcptest.suite.models.matchers"
_JUDGED = "mcptest.suite.models.judged_matchers"
_COMPOSITE = "mcptest.suite.models.composite"
MATCHERS: tuple[MatcherKind, ...] = (
    MatcherKind("exact", f"{_LEAF}:ExactMatcher", f"{_GRADE}:match_exact"),
    MatcherKind("contains", f"{_LEAF}:ContainsMatcher", f"{_GRADE}:match_contains"),
    MatcherKind("regex", f"{_LEAF}:RegexMatcher", f"{_GRADE}:match_regex"),
    MatcherKind("schema", f"{_LEAF}:SchemaMatcher", f"{_GRADE}:match_schema"),
    MatcherKind("not", f"{_COMPOSITE}:NotMatcher", f"{_GRADE}:match_not"),
    MatcherKind("all", f"{_COMPOSITE}:AllMatcher", f"{_GRADE}:match_all"),
    MatcherKind("any", f"{_COMPOSITE}:AnyMatcher", f"{_GRADE}:match_any"),
    MatcherKind("tools-called", "mcptest.suite.models.trajectory:ToolsCalledMatcher",
                "mcptest.grade.tools_called:grade_tools_called", of_values=False),
    MatcherKind("similar", "mcptest.suite.models.trajectory:SimilarMatcher",
                "mcptest.grade.similarity:grade_similar"),
    MatcherKind("same-shape", "mcptest.suite.models.scoring:SameShapeMatcher",
                "mcptest.grade.shape:grade_same_shape"),
    MatcherKind("llm-judge", f"{_JUDGED}:LlmJudgeMatcher",
                "mcptest.grade.escalation:grade_llm_judge", judged=True, of_values=False),
    MatcherKind("llm-jury", f"{_JUDGED}:LlmJuryMatcher",
                "mcptest.grade.llm_matchers:grade_llm_jury", judged=True, of_values=False),
    MatcherKind("eval-rubric", f"{_JUDGED}:EvalRubricMatcher",
                "mcptest.evals.assertions:grade_eval_rubric", judged=True, of_values=False),
    MatcherKind("custom-judge", f"{_JUDGED}:CustomJudgeMatcher",
                "mcptest.evals.assertions:grade_custom", judged=True, of_values=False),
)
"""The table: one entry per kind, in the order docs and error messages list them."""

MATCHER_KINDS: tuple[str, ...] = tuple(k.name for k in MATCHERS)
"""The one spelling of each kind (docs/suites.md, "Matchers"): the one reports and docs use."""
LLM_MATCHER_KINDS: frozenset[str] = frozenset(k.name for k in MATCHERS if k.judged)
"""Kinds graded in the judging tier (custom judges too, though they may call no model)."""
VALUE_MATCHER_KINDS: frozenset[str] = frozenset(k.name for k in MATCHERS if k.of_values)
"""Kinds that are matchers inside a `tools-called` argument pattern."""
_BY_NAME: dict[str, MatcherKind] = {k.name: k for k in MATCHERS}
_BY_MODEL: dict[str, MatcherKind] = {k.model: k for k in MATCHERS}


def _import(target: str) -> Any:
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


@functools.cache
def model_of(kind: str) -> type[BaseModel]:
    """The model of a kind (its one spelling), imported on first use."""
    model: type[BaseModel] = _import(_BY_NAME[kind].model)
    return model


class _KindOfModel(Mapping[type, MatcherKind]):
    """Matcher model → its kind, by the model's `module:Class` (no model is imported to ask)."""

    def __getitem__(self, model: type) -> MatcherKind:
        return _BY_MODEL[f"{model.__module__}:{model.__qualname__}"]

    def __iter__(self) -> Iterator[type]:
        return (model_of(k.name) for k in MATCHERS)

    def __len__(self) -> int:
        return len(MATCHERS)


KIND_OF_MODEL: Mapping[type, MatcherKind] = _KindOfModel()


def canonical_kind(key: str) -> str:
    """A matcher key as the suite wrote it → its kind (`tools_called` → `tools-called`)."""
    return MATCHER_KIND_ALIASES.get(key, key)


def matcher_kind(m: BaseModel) -> str:
    """The YAML key of a matcher model (`exact`, `llm-jury`, …)."""
    return KIND_OF_MODEL[type(m)].name


def load_grader(kind: MatcherKind) -> Any:
    """The kind's grader function, imported by the grading layer on first use."""
    return _import(kind.grader)


def _children(m: BaseModel) -> list[BaseModel]:
    """The matchers a composite holds (`not`, `all`, `any`)."""
    out: list[BaseModel] = []
    for name in type(m).model_fields:
        value = getattr(m, name)
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, BaseModel) and type(v) in KIND_OF_MODEL:
                out.append(v)
    return out


def is_llm_matcher(m: BaseModel) -> bool:
    """True when the matcher, or anything inside it, needs a model call."""
    kind = KIND_OF_MODEL[type(m)]
    return kind.judged or (kind.of_values and any(is_llm_matcher(c) for c in _children(m)))


def _kind_key(value: Any) -> str | None:
    """The kind a matcher mapping names: its one key (an older spelling too)."""
    if isinstance(value, dict):
        keys = [canonical_kind(k) for k in value if canonical_kind(k) in MATCHER_KINDS]
        return keys[0] if len(value) == 1 and keys else None
    return None


class _MatcherUnion(LazyUnion):
    """pydantic's `Matcher`: the mapping's one key names the kind, whose model (imported and
    built on first use) validates it. So a suite builds only the kinds it uses, while the
    published schema still offers every kind of the table."""

    members = tuple((k.name, k.model) for k in MATCHERS)
    error_type = "matcher_kind"
    error_message = "a matcher is a mapping with exactly one of: " + ", ".join(MATCHER_KINDS)
    tag = staticmethod(_kind_key)


if TYPE_CHECKING:
    Matcher: TypeAlias = BaseModel
    """Any matcher model of the table (type checkers see the common base)."""
else:
    Matcher = _MatcherUnion


@functools.cache
def matcher_adapter() -> TypeAdapter[Any]:
    """Validates one matcher on its own (a value inside a `tools-called` argument pattern)."""
    return TypeAdapter(Matcher)
