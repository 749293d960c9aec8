"""`mcptest.JudgeContext` (docs/cascade.md, "Custom judges"): the type says what custom judges
really receive, the context stays the dict old judges index, and a type checker catches a
misspelled key in a typed judge."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_run import HEAD, KEYLESS

import mcptest
from mcptest.evals.context import JudgeContext, JudgeItem

pytestmark = pytest.mark.slow  # runs the example server, or mypy

RECORDING_JUDGE = '''import json, pathlib
from mcptest import JudgeContext

def judge(ctx: JudgeContext) -> dict:
    out = pathlib.Path(__file__).parent / "received.json"
    out.write_text(json.dumps({"type": type(ctx).__name__, "keys": sorted(ctx),
                               "metadata": sorted(ctx["metadata"]),
                               "candidate": ctx.get("candidate")}))
    return {"verdict": "pass"}
'''


def _keys(typed: type) -> set[str]:
    return set(typed.__required_keys__) | set(typed.__optional_keys__)  # type: ignore[attr-defined]


def test_the_context_judges_receive_is_the_typed_dict(tmp_path: Path) -> None:
    (tmp_path / "recorder.py").write_text(RECORDING_JUDGE, encoding="utf-8")
    suite = tmp_path / "suite.yml"
    suite.write_text(HEAD + """tools:
  - name: greet
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {custom-judge: {python: "recorder:judge"}}
""", encoding="utf-8")
    report = mcptest.run(suite, env=KEYLESS, no_cache=True)
    assert report.tests[0].status == "passed", report.tests[0]
    got = json.loads((tmp_path / "received.json").read_text(encoding="utf-8"))
    assert got["type"] == "dict" and got["candidate"] == "Hello, Ada!"
    assert set(got["keys"]) == _keys(JudgeContext)
    assert set(JudgeItem.__required_keys__) <= set(got["metadata"]) <= _keys(JudgeItem)
    assert "tool" in got["metadata"]  # a tool test's item names its tool


def test_a_type_checker_catches_a_misspelled_key_in_a_typed_judge(tmp_path: Path) -> None:
    judge = tmp_path / "typed_judge.py"
    judge.write_text('''from mcptest import JudgeContext

def judge(ctx: JudgeContext) -> bool:
    words = len(str(ctx["candidate"]).split())
    return words > 2 and ctx["metadata"]["case"] is None and ctx["refrence"] is None
''', encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"),
                           "--no-error-summary", str(judge)],
                          capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.stdout.splitlines()[0].endswith(
        'error: TypedDict "JudgeContext" has no key "refrence"  [typeddict-item]'), done.stdout
    assert done.returncode == 1 and len(done.stdout.splitlines()) == 2  # the error, "Did you mean"
