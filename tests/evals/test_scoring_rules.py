"""Pure scoring rules: predicates, evidence spans, aggregation, gates, scales, rubric resolution."""

from __future__ import annotations

import math

import pytest

from mcptest.evals import prompts
from mcptest.evals.gates import aggregate, decide_criteria, display, evidence_found, when_holds
from mcptest.evals.presets import PRESET_CRITERIA
from mcptest.evals.projection import questions, tree_depth
from mcptest.evals.rubric import ResolvedRubric, resolve_rubric
from mcptest.report.models import CriterionResult
from mcptest.suite.models import (
    PRESETS,
    Criterion,
    LikertScale,
    RubricBody,
    RubricPreset,
    RubricRef,
    TreeNode,
    WhenContains,
    WhenRegex,
)


def test_when_predicates_are_deterministic() -> None:
    assert when_holds(None, "anything")
    assert when_holds(WhenContains(contains="error"), "an error 500")
    assert not when_holds(WhenContains(contains="Error"), "an error 500")
    assert when_holds(WhenRegex(regex=r"(?i)ERROR \d+"), "an error 500")
    assert not when_holds(WhenRegex(regex=r"^error"), "an error")


@pytest.mark.parametrize(("span", "ok"), [
    ("per-tenant rate limits", True),
    ("  per-tenant\n   rate   limits ", True),          # whitespace-normalised
    ('"2.3.0 release"', True),                           # one pair of quotes the judge added
    ("per-tenant rate-limits", False),                   # not verbatim
    ("Per-tenant rate limits", False),                   # case matters
    ("", False),
    (None, False),
])
def test_evidence_must_be_a_verbatim_span(span: str | None, ok: bool) -> None:
    candidate = "The 2.3.0 release added\n per-tenant   rate limits."
    assert evidence_found(span, candidate) is ok


def test_aggregations() -> None:
    pairs = [(1.0, 2.0), (0.5, 1.0)]
    assert aggregate(pairs, "mean") == pytest.approx(2.5 / 3)
    assert aggregate(pairs, "min") == 0.5
    assert aggregate(pairs, "max") == 1.0
    assert aggregate([(0.2, 1), (0.4, 1), (0.9, 1)], "median") == 0.4
    assert aggregate(pairs, "geometric") == pytest.approx(math.exp(math.log(0.5) / 3))
    assert aggregate([(0.0, 1), (1.0, 1)], "geometric") == 0.0
    with pytest.raises(ValueError):
        aggregate([], "mean")


def test_display_scale_changes_only_the_reading() -> None:
    scale = LikertScale.model_validate({"likert": {"min": 1, "max": 5}})
    assert display(0.75, scale) == "4.0/5"
    assert display(0.84, "percent") == "84%"
    assert display(0.5, None) == "0.50"
    assert display(None, "percent") is None


def _c(name: str, score: float | None, status: str = "passed", **kw: object) -> CriterionResult:
    return CriterionResult(name=name, score=score, status=status, threshold=0.7, **kw)


def test_decide_gates() -> None:
    ok = decide_criteria([_c("a", 0.9), _c("b", 0.8)], threshold=0.7, strict=False, how="mean")
    assert ok[:2] == (pytest.approx(0.85), True)
    # required below its gate fails whatever the mean
    req = decide_criteria([_c("a", 1.0), _c("b", 0.6, "failed", required=True)], threshold=0.7,
                  strict=False, how="mean")
    assert req[1] is False and "required `b`" in req[2]
    # a guard that holds fails the eval and never enters the mean
    guard = decide_criteria([_c("a", 0.9), _c("g", 0.95, "failed", guard=True)], threshold=0.7,
                   strict=False, how="mean")
    assert guard[0] == pytest.approx(0.9) and guard[1] is False and "guard `g`" in guard[2]
    # strict needs every criterion perfect
    strict = decide_criteria([_c("a", 1.0), _c("b", 0.9)], threshold=0.7, strict=True, how="mean")
    assert strict[1] is False and "strict" in strict[2]
    # all skipped: vacuous pass
    vac = decide_criteria([_c("a", None, "skipped")], threshold=0.7, strict=False, how="mean")
    assert vac == (None, True, vac[2], True) and "vacuous" in vac[2]
    # extra gates (missing evidence) fail a passing mean
    gated = decide_criteria([_c("a", 0.9)], threshold=0.7, strict=False, how="mean", gated=["no span"])
    assert gated[1] is False and "no span" in gated[2]


def test_rubric_resolution_and_threshold_precedence() -> None:
    body = RubricBody(threshold=0.6, criteria=[Criterion(name="x", description="d")])
    rubrics = {"shared": body}
    assert resolve_rubric("text", rubrics).threshold == 0.7
    assert resolve_rubric("text", rubrics, 0.5).threshold == 0.5
    assert resolve_rubric(RubricRef(ref="shared"), rubrics).threshold == 0.6
    assert resolve_rubric(RubricRef(ref="shared"), rubrics, 0.8).threshold == 0.8
    over = resolve_rubric(RubricRef(ref="shared", threshold=0.9, strict=True), rubrics, 0.8)
    assert (over.threshold, over.strict, over.source) == (0.9, True, "ref:shared")
    preset = resolve_rubric(RubricPreset(preset="groundedness", criteria=[
        Criterion(name="brief", description="short")]), rubrics)
    names = [c.name for c in preset.body.criteria]  # type: ignore[union-attr]
    assert names[-1] == "brief" and len(names) == len(PRESET_CRITERIA["groundedness"]) + 1


def test_every_preset_exists() -> None:
    assert set(PRESET_CRITERIA) == set(PRESETS)
    assert all(PRESET_CRITERIA[p] for p in PRESETS)


def test_calibration_examples_render_into_the_criterion_prompt() -> None:
    c = Criterion.model_validate({"name": "grounded", "description": "Supported.", "examples": [
        {"response": "2.3.0 added limits.", "score": 1.0},
        {"response": "rewrote billing", "score": 0.25}]})
    text = prompts.criterion(c, "What changed?")
    assert "Calibration examples" in text
    assert 'Response: "2.3.0 added limits." -> score 1.00' in text
    assert 'Response: "rewrote billing" -> score 0.25' in text
    assert "What changed?" in text
    assert "verbatim" in prompts.criterion(c, None, evidence=True)
    assert "verbatim" not in text


def test_projected_questions() -> None:
    tree = TreeNode.model_validate({"ask": "a?", "yes": {"ask": "b?", "yes": {"score": 1},
                                                         "no": {"score": 0}},
                                    "no": {"score": 0}})
    assert tree_depth(tree) == 2
    tree_rubric = ResolvedRubric(text=None, body=RubricBody(tree=tree), threshold=0.7,
                                 strict=False, source="inline")
    assert questions(tree_rubric, "x") == (2, False)
    crit = ResolvedRubric(text=None, threshold=0.7, strict=False, source="inline",
                          body=RubricBody(criteria=[
                              Criterion(name="a", description="d"),
                              Criterion(name="b", description="d",
                                        when=WhenContains(contains="error"))]))
    assert questions(crit, "all fine") == (1, True)
    assert questions(crit, "an error") == (2, True)
    assert questions(crit, None) == (2, False)
