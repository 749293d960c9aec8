"""A suite builds only the models it uses (docs/architecture.md, "Costs"): the loader validates
each section a file has on its own (`suite/sections.py`), and a matcher kind's model is imported
and built when a suite first uses that kind (`suite/models/matcher_kinds.py`). Checked in a
fresh interpreter, by what it imported and which models it built, never by timing."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import yaml

import mcptest.suite.models as package
from mcptest.suite.load import load_suite

CHILD = """
import json, sys
from pathlib import Path
from mcptest.suite.load import load_suite
loaded = load_suite(Path(sys.argv[1]), env={})
from mcptest.suite.models.base import Strict
def subclasses(c):
    for s in c.__subclasses__():
        yield s
        yield from subclasses(s)
print(json.dumps({
    "modules": sorted(m for m in sys.modules if m.startswith("mcptest.suite.models.")),
    "defined": sorted(c.__name__ for c in subclasses(Strict)),
    "built": sorted(c.__name__ for c in subclasses(Strict) if c.__pydantic_complete__),
    "names": [t.name for t in loaded.suite.evals + loaded.suite.tools],
}))
"""

EVALS = """\
evals:
  - name: note
    prompt: What was deployed?
    response: billing v2
    rubric: Names the release.
    judge: {model: judge-a}
"""

TOOLS = """\
servers:
  ex: {command: [python, -c, pass]}
tools:
  - name: adds
    server: ex
    tool: add
    args: {a: 1, b: 2}
    expect: [{target: result.structuredContent.result, matcher: {exact: 3}}]
"""


def _load_fresh(tmp_path: Path, text: str) -> dict[str, list[str]]:
    suite = tmp_path / "suite.yml"
    suite.write_text(text, encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", CHILD, str(suite)], capture_output=True,
                         text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    found: dict[str, list[str]] = json.loads(run.stdout)
    return found


def test_a_suite_of_evals_builds_no_server_test_or_matcher_model(tmp_path: Path) -> None:
    found = _load_fresh(tmp_path, EVALS)
    assert found["names"] == ["note"]
    modules = {m.rsplit(".", 1)[1] for m in found["modules"]}
    assert {"eval_spec", "rubrics"} <= modules
    assert not modules & {"servers", "client", "cases", "assertion", "matchers", "composite",
                          "judged_matchers", "rubric_criteria", "trajectory", "surface",
                          "surface_cases", "selection_spec"}, modules
    assert "EvalSpec" in found["defined"]
    assert not {"ExactMatcher", "LlmJudgeMatcher", "NotMatcher", "ToolTest", "StdioServer",
                "Assertion"} & set(found["defined"])


def test_a_tool_suite_builds_only_the_matcher_kinds_it_uses(tmp_path: Path) -> None:
    found = _load_fresh(tmp_path, TOOLS)
    assert found["names"] == ["adds"]
    assert "ExactMatcher" in found["built"]
    assert not {"RegexMatcher", "SchemaMatcher", "LlmJudgeMatcher", "LlmJuryMatcher",
                "CustomJudgeMatcher"} & set(found["built"])
    modules = {m.rsplit(".", 1)[1] for m in found["modules"]}
    assert not modules & {"composite", "trajectory", "eval_spec", "surface_cases",
                          "judged_matchers", "rubrics"}, modules


def test_the_whole_model_still_sees_every_section_and_kind(tmp_path: Path) -> None:
    """`Suite.model_validate` builds the whole model on first use; the loader's result is the
    same suite."""
    from mcptest.suite.models import Suite

    suite = tmp_path / "suite.yml"
    suite.write_text(TOOLS + EVALS, encoding="utf-8")
    loaded = load_suite(suite, env={}).suite
    whole = Suite.model_validate(yaml.safe_load(TOOLS + EVALS))
    assert whole.model_dump() == loaded.model_dump()
    assert whole.model_fields_set == loaded.model_fields_set == {"servers", "tools", "evals"}


def test_type_checkers_see_the_names_that_load_lazily() -> None:
    """Each name of `mcptest.suite.models` is imported under `TYPE_CHECKING` from the module
    `_LAZY` loads it from, and every one resolves."""
    tree = ast.parse(Path(package.__file__).read_text(encoding="utf-8"))
    (block,) = [n for n in tree.body if isinstance(n, ast.If)
                and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"]
    declared = {a.asname or a.name: str(node.module).rsplit(".", 1)[1] for node in block.body
                if isinstance(node, ast.ImportFrom) for a in node.names}
    assert declared == package._LAZY
    assert set(package.__all__) == set(declared)
    for name in package.__all__:
        assert getattr(package, name) is not None
