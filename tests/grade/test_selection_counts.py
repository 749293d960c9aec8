"""Counting selection votes (grade/selection_grade.py, docs/selection.md): won only outright, ties,
margins, argument accuracy, the row's accuracy and Wilson interval and its gates; and the
block's load errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcptest.errors import SuiteErrors
from mcptest.grade.selection_grade import SelectionSample, stats_of, verdict, votes_of
from mcptest.plan import build_plan
from mcptest.suite.load import load_suite
from mcptest.suite.models import NO_TOOL, SelectionPrompt, SelectionSpec

FORECAST = SelectionPrompt(prompt="Weather in Oslo?", tool="forecast",
                           args={"city": {"regex": "(?i)^oslo$"}})
GREET = SelectionPrompt(prompt="Say hi.", tool="greet")


def spec(**kw: object) -> SelectionSpec:
    return SelectionSpec.model_validate({"models": ["m"], "prompts": [
        FORECAST.model_dump(exclude_none=True) | {"args": {"city": {"regex": "(?i)^oslo$"}}},
        GREET.model_dump(exclude_none=True)], **kw})


def test_a_prompt_is_won_outright_and_its_margin_is_against_the_runner_up() -> None:
    v = votes_of(FORECAST, [SelectionSample("forecast", {"city": "Oslo"}), SelectionSample("forecast", {"city": "oslo"}),
                            SelectionSample("forecast", {"city": "Bergen"}), SelectionSample("search_services"),
                            SelectionSample(NO_TOOL)])
    assert (v.won, v.tie, v.margin, v.scored) == (True, False, 2, 5)
    assert v.votes == {"forecast": 3, "(no tool)": 1, "search_services": 1}
    assert (v.args_checked, v.args_matched) == (3, 2)
    tie = votes_of(GREET, [SelectionSample("greet"), SelectionSample("add"), SelectionSample("greet"), SelectionSample("add")])
    assert (tie.won, tie.tie, tie.margin) == (False, True, 0)
    others = votes_of(GREET, [SelectionSample("add")] * 2 + [SelectionSample("divide")] * 2 + [SelectionSample("greet")])
    assert (others.won, others.tie, others.margin) == (False, True, -1)  # a tie it is not in
    lost = votes_of(GREET, [SelectionSample("add")] * 3)
    assert (lost.won, lost.margin, lost.args_checked) == (False, -3, 0)
    nothing = votes_of(GREET, [])
    assert (nothing.won, nothing.margin, nothing.scored) == (False, None, 0)


def test_the_row_counts_scored_prompts_and_its_gates_say_what_failed() -> None:
    won = votes_of(FORECAST, [SelectionSample("forecast", {"city": "Oslo"})] * 4 + [SelectionSample("greet")])
    close = votes_of(GREET, [SelectionSample("greet")] * 3 + [SelectionSample("add")] * 2)
    s = stats_of(spec(min_accuracy=0.5, min_margin=2), [won, close],
                 prompt_tokens=1000, completion_tokens=100)
    assert (s.won, s.scored, s.accuracy, s.ties, s.margin) == (2, 2, 1.0, 0, 1)
    assert (s.args_checked, s.args_matched, s.args_accuracy, s.samples) == (4, 4, 1.0, 10)
    assert s.accuracy_ci95 is not None and s.accuracy_ci95.low == 0.34238  # Wilson, 2 of 2
    passed, message = verdict(s)
    assert not passed
    assert message == ("selection 2/2 (accuracy 1.00), ties 0, margin 1, arguments 4/4: "
                       "margin 1 < min_margin 2. Closest: 'Say hi.' → greet 3, add 2 "
                       "(expected greet)")
    unscored = stats_of(spec(), [won, votes_of(GREET, [])], prompt_tokens=0,
                        completion_tokens=0)
    assert (unscored.scored, unscored.prompts, unscored.accuracy) == (1, 2, 1.0)
    assert verdict(unscored) == (True, "selection 1/1 (accuracy 1.00), ties 0, margin 3, "
                                       "arguments 4/4")


def test_the_block_is_checked_at_load_and_planned_one_row_per_model(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    path = Path("s.yml")
    path.write_text("""servers:
  ex: {command: [python3, x.py]}
selection:
  ex:
    models: [a, b]
    prompts: [{prompt: hi, tool: greet}]
  exx:
    models: [a]
    repeat: 3
    prompts: [{prompt: hi, tool: greet, args: {name: {regex: "("}}}]
""", encoding="utf-8")
    with pytest.raises(SuiteErrors) as caught:
        load_suite(path, env={})
    said = str(caught.value)
    assert "selection.exx: unknown server `exx` (did you mean `ex`?)" in said
    assert "selection.exx.repeat" in said and "regex does not compile" in said
    path.write_text(path.read_text().split("  exx:")[0], encoding="utf-8")
    plan = build_plan([load_suite(path, env={})])
    assert [(t.id, t.kind, t.model, t.server) for t in plan.tests] == [
        ("s.yml::selection::tool selection on ex[model=a]", "selection", "a", "ex"),
        ("s.yml::selection::tool selection on ex[model=b]", "selection", "b", "ex")]
    assert plan.needs_judge and plan.server_keys() == [("s.yml", "ex")]
    assert build_plan([load_suite(path, env={})], agents=False).tests == ()
