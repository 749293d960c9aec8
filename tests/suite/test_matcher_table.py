"""The one table of matcher kinds (`suite/models/matcher_kinds.py`, docs/architecture.md): every
list of kinds derives from it, and a new kind needs its model, its grader and one entry there."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import mcptest
from mcptest.compare.row_measures import judged_kinds
from mcptest.grade.deterministic import evaluate
from mcptest.judging.graders import grader_for
from mcptest.suite.models import MATCHER_KINDS, MATCHERS, Assertion, is_llm_matcher
from mcptest.suite.models.matcher_kinds import (
    LLM_MATCHER_KINDS,
    VALUE_MATCHER_KINDS,
    load_grader,
    matcher_kind,
)
from mcptest.suite.models.trajectory import CallPattern

SRC = Path(mcptest.__file__).parent
ROOT = SRC.parents[1]


def test_each_kind_is_one_entry_and_every_list_derives_from_the_table() -> None:
    names = [k.name for k in MATCHERS]
    assert len(set(names)) == len(names) and tuple(names) == MATCHER_KINDS
    assert len({k.model for k in MATCHERS}) == len(MATCHERS)
    assert {k.name for k in MATCHERS if k.judged} == LLM_MATCHER_KINDS
    assert {k.name for k in MATCHERS if k.of_values} == VALUE_MATCHER_KINDS
    assert not LLM_MATCHER_KINDS & VALUE_MATCHER_KINDS  # a judge never checks an argument
    # a comparison's judged rows: the table's judged kinds, and the older spelling reports keep
    assert judged_kinds() == LLM_MATCHER_KINDS | {"eval.rubric"}


@pytest.mark.parametrize("kind", MATCHERS, ids=lambda k: k.name)
def test_each_grader_resolves_in_a_layer_below_the_one_that_calls_it(kind) -> None:
    """Graders are named as text (the loader must not import them): each name resolves, and
    to a module the calling layer may import (`grade/` for a check; `grade/`, `evals/` for a
    judged kind, which `judging/` calls)."""
    grader = load_grader(kind)
    assert callable(grader)
    allowed = ("mcptest.grade.", "mcptest.evals.") if kind.judged else ("mcptest.grade.",)
    assert grader.__module__.startswith(allowed), (kind.name, grader.__module__)


def test_deterministic_and_judged_dispatch_each_refuse_the_other_side() -> None:
    exact = Assertion.model_validate({"target": "t", "matcher": {"exact": 1}}).matcher
    judged = Assertion.model_validate(
        {"target": "t", "matcher": {"llm-judge": {"rubric": "Is it fine?"}}}).matcher
    assert evaluate(exact, 1).passed and not evaluate(exact, 2).passed
    assert callable(grader_for(judged))
    with pytest.raises(TypeError):
        grader_for(exact)
    with pytest.raises(TypeError):
        evaluate(judged, "x")
    assert is_llm_matcher(judged) and not is_llm_matcher(exact)
    nested = Assertion.model_validate(
        {"target": "t", "matcher": {"any": [{"exact": 1}, {"all": [{"regex": "^a"}]}]}}).matcher
    assert not is_llm_matcher(nested) and evaluate(nested, "abc").passed


def test_every_value_kind_is_a_matcher_inside_an_argument_pattern() -> None:
    """`same-shape` included (an argument pattern once kept its own list, which lacked it)."""
    pattern = CallPattern.model_validate({"name": "weather", "args": {
        "city": {"regex": "(?i)^os"}, "when": {"same-shape": {"like": {"day": 1}}},
        "note": {"similar": {"to": "hello world"}}, "raw": {"tools-called": {"count": {"max": 1}}},
    }})
    assert pattern.args is not None
    kinds = {k: matcher_kind(v) if not isinstance(v, dict) else None
             for k, v in pattern.args.items()}
    assert kinds == {"city": "regex", "when": "same-shape", "note": "similar", "raw": None}


def test_the_docs_list_every_kind() -> None:
    """docs/suites.md's matcher table has a row for each kind of the table."""
    text = (ROOT / "docs" / "suites.md").read_text(encoding="utf-8")
    section = text.split("### Matchers", 1)[1].split("\n### ", 1)[0]
    missing = [k for k in MATCHER_KINDS if f"| `{k}" not in section and f"/ `{k}" not in section]
    assert not missing, f"docs/suites.md, Matchers: no row for {missing}"


STARTS_WITH_MODEL = '''"""`starts-with`: the text begins with a prefix (a kind added by a test)."""

from mcptest.suite.models.base import Strict
from pydantic import Field


class StartsWithMatcher(Strict):
    starts_with: str = Field(alias="starts-with")
'''

STARTS_WITH_GRADER = '''"""The grader of `starts-with`."""

from typing import Any

from mcptest.grade.verdicts import Verdict, shorten_json
from mcptest.suite.models.starts_with import StartsWithMatcher


def grade_starts_with(m: StartsWithMatcher, value: Any) -> Verdict:
    if isinstance(value, str) and value.startswith(m.starts_with):
        return Verdict(True, expected=m.starts_with)
    return Verdict(False, f"expected to start with {m.starts_with!r}, got {shorten_json(value)}",
                   m.starts_with)
'''

ENTRY = ('    MatcherKind("starts-with", "mcptest.suite.models.starts_with:StartsWithMatcher", '
         '"mcptest.grade.starts_with:grade_starts_with"),\n')

SUITE = """\
servers:
  ex: {command: [python, -c, pass]}
tools:
  - name: greets
    server: ex
    tool: greet
    expect:
      - {target: "result.content[0].text", matcher: {starts-with: "Hello"}}
      - {target: "result.content[0].text", matcher: {not: {starts-with: "Bye"}}}
agents:
  - name: plans
    models: [gpt-4o]
    servers: [ex]
    prompt: "Weather in Oslo?"
    expect:
      - {target: tool_calls, matcher: {tools-called: {contains: [{name: weather, args: {city: {starts-with: Os}}}]}}}
"""

CHILD = """\
import json, sys
from pathlib import Path
from mcptest.grade.deterministic import evaluate
from mcptest.suite.load import load_suite
from mcptest.suite.models import MATCHER_KINDS, is_llm_matcher
from mcptest.suite.schema import suite_json_schema

suite = load_suite(Path(sys.argv[1]), env={}).suite
tool, agent = suite.tools[0], suite.agents[0]
calls = agent.expect[0].matcher
print(json.dumps({
    "kinds": list(MATCHER_KINDS),
    "tool": [[evaluate(a.matcher, t).passed for a in tool.expect] for t in ("Hello, Ada", "Bye")],
    "judged": [is_llm_matcher(a.matcher) for a in tool.expect],
    "calls": [evaluate(calls, [{"name": "weather", "args": {"city": c}}]).passed
              for c in ("Oslo", "Bergen")],
    "schema": "starts-with" in json.dumps(suite_json_schema()),
}))
"""


@pytest.mark.slow  # copies the package and runs a Python process on the copy
def test_a_new_kind_needs_its_model_its_grader_and_one_table_entry(tmp_path: Path) -> None:
    """Add `starts-with` to a copy of the package: two new modules, and in the table's module
    one entry (it names the model and the grader, imported on first use); nothing else edited.
    It then loads (also under `not` and inside a `tools-called` argument pattern), grades, is
    deterministic, and is in the published schema."""
    copy = tmp_path / "src" / "mcptest"
    shutil.copytree(SRC, copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "suite" / "models" / "starts_with.py").write_text(STARTS_WITH_MODEL, encoding="utf-8")
    (copy / "grade" / "starts_with.py").write_text(STARTS_WITH_GRADER, encoding="utf-8")
    table = copy / "suite" / "models" / "matcher_kinds.py"
    text = table.read_text(encoding="utf-8")
    anchor = ")\n\"\"\"The table: one entry per kind"
    assert text.count(anchor) == 1
    text = text.replace(anchor, ENTRY + anchor)
    table.write_text(text, encoding="utf-8")
    changed = [p.relative_to(copy).as_posix() for p in sorted(copy.rglob("*.py"))
               if not (SRC / p.relative_to(copy)).is_file()
               or (SRC / p.relative_to(copy)).read_bytes() != p.read_bytes()]
    assert changed == ["grade/starts_with.py", "suite/models/matcher_kinds.py",
                       "suite/models/starts_with.py"]
    suite = tmp_path / "s.yml"
    suite.write_text(SUITE, encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", CHILD, str(suite)], capture_output=True,
                         text=True, timeout=120, check=False,
                         env={"PYTHONPATH": str(copy.parent), "PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    assert found["kinds"][-1] == "starts-with"
    assert found["tool"] == [[True, True], [False, False]]
    assert found["judged"] == [False, False]
    assert found["calls"] == [True, False]
    assert found["schema"]
