"""How many judge calls an eval row makes, known before anything runs (`--explain`, header).

Exact for free-form rubrics and criteria (a fixed response lets us evaluate `when` predicates,
which are deterministic); for a decision tree it is the longest root-to-leaf path, the most the
walk can ask. A live eval projects all criteria, since its candidate does not exist yet.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from mcptest.evals.rubric import ResolvedRubric, resolve_rubric
from mcptest.evals.verdict import SampleSeat, seats
from mcptest.suite.models.matcher_kinds import matcher_kind

if TYPE_CHECKING:
    from collections.abc import Mapping

    from mcptest.suite.models import EvalRubricMatcher, EvalSpec, RubricBody, TreeLeaf, TreeNode


@dataclass(frozen=True)
class EvalProjection:
    """What judging one eval will ask before it is asked, for the run's cost bound."""

    rubric: ResolvedRubric
    mode: str
    seats: list[SampleSeat]
    questions: int
    """Judge questions per sample (criteria applicable, tree depth, or 1)."""
    exact: bool
    """False when the count is an upper bound (trees, live candidates with `when`, a panel or
    jury with `early_stop`)."""
    candidate: str
    """`fixed response`, or `live agent run (<model>)`."""

    @property
    def calls(self) -> int:
        return self.questions * len(self.seats)


def tree_depth(node: TreeNode | TreeLeaf) -> int:
    from mcptest.suite.models import TreeLeaf  # a tree rubric's: loaded only for one

    if isinstance(node, TreeLeaf):
        return 0
    return 1 + max(tree_depth(node.yes), tree_depth(node.no))


def questions(rubric: ResolvedRubric, text: str | None) -> tuple[int, bool]:
    if rubric.body is None:
        return 1, True
    if rubric.body.tree is not None:
        return tree_depth(rubric.body.tree), False
    criteria = rubric.body.criteria or []
    if text is None:
        return len(criteria), not any(c.when for c in criteria)
    if not any(c.when for c in criteria):  # every criterion is asked
        return len(criteria), True
    from mcptest.evals.gates import when_holds

    return sum(1 for c in criteria if when_holds(c.when, text)), True


def project_eval(spec: EvalSpec, rubrics: Mapping[str, RubricBody], *,
                 model: str | None) -> EvalProjection:
    """`model`: the row's matrix model (judge model for fixed responses, agent model if live)."""
    rubric = resolve_rubric(spec.rubric, rubrics, spec.threshold)
    live = spec.response is None
    judge_model = None if live else model
    mode, who = seats(spec.judge, judge_model)
    n, exact = questions(rubric, spec.response)
    if spec.judge is not None and spec.judge.early_stop and len(who) > 1:
        exact = False  # the later gradings only when the first disagree (docs/evals.md)
    agent = model or spec.model or "default model"
    return EvalProjection(rubric=rubric, mode=mode, seats=who, questions=n, exact=exact,
                          candidate=f"live agent run ({agent})" if live else "fixed response")


def project_agent_rubrics(spec: Any, rubrics: Mapping[str, RubricBody]) -> list[EvalProjection]:
    """One projection per `eval-rubric` assertion of a test's `expect` (the suite's judge); a
    `tool-description-quality` listing counts one tool (the listing's size is not known yet)."""
    out = []
    for a in spec.expect:
        if matcher_kind(a.matcher) == "eval-rubric":  # by name: no matcher model is loaded
            r = resolve_rubric(cast("EvalRubricMatcher", a.matcher).eval_rubric, rubrics)
            mode, who = seats(None, None)
            n, exact = questions(r, None)
            out.append(EvalProjection(rubric=r, mode=mode, seats=who, questions=n, exact=exact,
                                      candidate=f"transcript ({a.target})"))
    return out
