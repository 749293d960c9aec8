"""Parsing judge replies: fences, last object, pass-only verdicts, refusals, garbage."""

from __future__ import annotations

import pytest

from mcptest.llm.judge_reply import ParseFailure, parse_verdict


def test_plain_json() -> None:
    v = parse_verdict('{"score": 0.8, "pass": true, "reason": "ok", "evidence": "x"}')
    assert (v.score, v.passed, v.reason, v.evidence, v.abstain) == (0.8, True, "ok", "x", False)


def test_fenced_json_is_unwrapped() -> None:
    v = parse_verdict('Sure.\n```json\n{"score": 0.4, "reason": "meh"}\n```\nDone.')
    assert v.score == 0.4 and v.reason == "meh"


def test_last_object_wins_when_the_judge_thinks_aloud() -> None:
    text = 'Draft: {"score": 0.1, "reason": "draft"} ... final: {"score": 0.9, "reason": "final"}'
    assert parse_verdict(text).score == 0.9


@pytest.mark.parametrize(("passed", "score"), [(True, 1.0), (False, 0.0)])
def test_pass_only_verdict_scores_one_or_zero(passed: bool, score: float) -> None:
    v = parse_verdict(f'{{"pass": {str(passed).lower()}, "reason": "r"}}')
    assert v.score == score and v.passed is passed


def test_abstention_needs_no_score() -> None:
    v = parse_verdict('{"abstain": true, "reason": "not my field"}')
    assert v.abstain and v.score is None


@pytest.mark.parametrize("text", [
    "I'm sorry, but I can't help with that.",
    "I cannot evaluate this content.",
])
def test_refusal_text_is_an_abstention(text: str) -> None:
    v = parse_verdict(text)
    assert v.abstain and v.score is None and "refused" in v.reason


def test_refusal_field_is_an_abstention() -> None:
    assert parse_verdict(None, refusal="policy").abstain


@pytest.mark.parametrize("text", [
    "", "looks fine to me", '{"score": 0.9, "reason": "cut', '{"score": 1.7, "reason": "x"}',
    '{"reason": "no score or pass"}', '{"score": "high"}',
])
def test_unusable_replies_fail_to_parse(text: str) -> None:
    with pytest.raises(ParseFailure):
        parse_verdict(text)
