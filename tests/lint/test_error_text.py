"""Error text under `isError: false`: the lint's reading and the check `mcptest init` writes agree
on every line of the corpus (tests/lint/fixtures/error-text.json), through the real matcher."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcptest.grade.deterministic import evaluate
from mcptest.lint.error_text import error_text, starter_check
from mcptest.suite.models import ToolTest

CORPUS = json.loads((Path(__file__).parent / "fixtures" / "error-text.json").read_text(
    encoding="utf-8"))
CHECK = ToolTest.model_validate({"name": "t", "server": "s", "tool": "t",
                                 "expect": [starter_check()]}).expect[0]


def result(text: str, **extra: Any) -> dict[str, Any]:
    return {"content": [{"type": "image", "data": "", "mimeType": "image/png"},
                        {"type": "text", "text": text}], **extra}


@pytest.mark.parametrize("text", CORPUS["errors"])
def test_error_text_is_found_by_lint_and_by_the_starter_check(text: str) -> None:
    assert error_text(result(text)) == " ".join(text.strip().splitlines()[0].split())[:160]
    assert error_text(result(text, isError=False)) is not None
    assert not evaluate(CHECK.matcher, result(text)).passed


@pytest.mark.parametrize("text", CORPUS["answers"])
def test_ordinary_answers_are_not_error_text(text: str) -> None:
    assert error_text(result(text)) is None
    assert evaluate(CHECK.matcher, result(text)).passed


def test_a_result_that_says_is_error_true_is_not_this_rules_business() -> None:
    failed = result("Error: no such table: users", isError=True)
    assert error_text(failed) is None
    assert evaluate(CHECK.matcher, failed).passed  # the isError assertion reports it instead
    assert error_text({"isError": False}) is None
    assert error_text(None) is None


@pytest.mark.parametrize(("structured", "found"), [
    ({"error": "no such city"}, True),
    ({"ok": False, "error": {"code": 404}}, True),
    ({"error": None, "temperature": 21}, False),
    ({"readings": [{"error": "sensor offline"}]}, False),  # nested: data, not the answer's error
])
def test_a_json_error_object_in_structured_content(structured: dict[str, Any], found: bool) -> None:
    answer = {"content": [{"type": "text", "text": json.dumps(structured)}],
              "structuredContent": structured}
    assert (error_text(answer) is not None) is found
    assert evaluate(CHECK.matcher, answer).passed is not found
    alone = {"content": [], "structuredContent": structured, "isError": False}
    assert (error_text(alone) is not None) is found
    assert evaluate(CHECK.matcher, alone).passed is not found


def test_a_pretty_printed_json_error_is_shown_on_one_line() -> None:
    text = json.dumps({"error": "rate limited", "retry_after": 3}, indent=2)
    assert error_text(result(text)) == '{ "error": "rate limited", "retry_after": 3 }'
    assert not evaluate(CHECK.matcher, result(text)).passed
