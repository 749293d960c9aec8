"""Importing the engine or the LLM matchers must not import litellm (it costs seconds)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # fresh interpreters in subprocesses

CODE = """
import sys
import mcptest.llm.engine, mcptest.grade.llm_matchers
from mcptest.llm.contracts import JudgeOptions, JudgeRequest
from mcptest.llm.engine import JudgeEngine
import anyio
engine = JudgeEngine(JudgeOptions(env={}))
outcome = anyio.run(engine.judge, JudgeRequest(rubric="r", candidate="c"))
assert outcome.status == "deferred", outcome
print("litellm" in sys.modules)
"""


def test_no_litellm_on_import_or_on_a_deferred_judge() -> None:
    out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True,
                         timeout=60)
    assert out.stdout.strip() == "False"


def test_start_imports_litellm_in_the_background() -> None:
    code = ("import os; from mcptest.llm.imports import LitellmLoader; l = LitellmLoader(); "
            "l.start(); m = l.get(); import sys; "
            "print('litellm' in sys.modules, os.environ['LITELLM_LOCAL_MODEL_COST_MAP'], "
            "m.suppress_debug_info)")
    env = {"PATH": "/usr/bin:/bin"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120, env=env)
    assert out.stdout.split() == ["True", "True", "True"]
    assert "fetch" not in out.stderr.lower()  # no price-table download attempt


GATEWAY_JUDGE = """
import json, sys, anyio
from mcptest.llm.contracts import JudgeOptions, JudgeRequest
from mcptest.llm.engine import JudgeEngine
engine = JudgeEngine(JudgeOptions(env=json.loads(sys.argv[1])))
o = anyio.run(engine.judge, JudgeRequest(rubric="r", candidate="c", model="gw-judge"))
print(json.dumps({"status": o.status, "score": o.score,
                  "loaded": sorted(m for m in ("litellm", "openai") if m in sys.modules)}))
"""


@pytest.mark.parametrize(("route", "loaded"), [("fast", []), ("litellm", ["litellm", "openai"])])
def test_gateway_judge_takes_the_fast_route_without_litellm_or_openai(
        route: str, loaded: list[str]) -> None:
    with JudgeServer(route=route) as js:
        js.script("gw-judge", Verdict(score=0.7))
        out = subprocess.run([sys.executable, "-c", GATEWAY_JUDGE, json.dumps(js.gateway_env())],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout) == {"status": "verdict", "score": 0.7, "loaded": loaded}
        assert js.count("gw-judge") == 1


def test_fixed_response_evals_through_a_gateway_import_no_litellm_openai_or_mcp(
        tmp_path: Path) -> None:
    """Nor what only other suites use: JSON Schema (schema matchers, output schemas), the
    `regex` engine (suite regexes), jinja2 (the markdown and HTML reporters), scipy and numpy
    (the cascade's shift check; a panel's vote correlations are plain Python), rapidfuzz,
    sarif-om, httpx, httpx2, httpcore or h2 (the fast route is h11 on anyio's streams), or the
    model cassettes (without `--models`); nor parse litellm's price table for a gateway model
    (docs/judges.md, "Speed")."""
    suite = tmp_path / "evals.yml"
    suite.write_text("""
evals:
  - name: note
    prompt: What was deployed?
    response: Deployed billing v2.
    rubric: The answer is a deployment note.
    judge: {model: gw-judge}
  - name: note on a panel
    prompt: What was deployed?
    response: Deployed billing v2.
    rubric: The answer is a deployment note.
    judge: {panel: [gw-judge, gw-judge-2], aggregate: majority}
""", encoding="utf-8")
    code = ("import sys, json; from mcptest.cli.main import main; "
            f"rc = main(['eval', {str(suite)!r}, '--no-cache', '--reporter', 'json', "
            f"'--output', {str(tmp_path / 'r.json')!r}]); "
            "from mcptest.llm.price_table import price_table; "
            "print(json.dumps([rc, sorted(m for m in ('litellm', 'openai', 'mcp', 'jsonschema', "
            "'referencing', 'jsonschema_specifications', 'regex', 'jinja2', 'scipy', 'numpy', "
            "'rapidfuzz', 'sarif_om', 'httpx', 'httpx2', 'httpcore', 'h2', 'mcptest.llm.cassette') "
            "if m in sys.modules), "
            "price_table().parsed]))")
    with JudgeServer() as js:
        js.script("gw-judge", Verdict(score=0.9))
        js.script("gw-judge-2", Verdict(score=0.9))
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             timeout=120, env={"PATH": "/usr/bin:/bin", **js.gateway_env()})
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout.strip().splitlines()[-1]) == [0, [], False]
        assert (js.count("gw-judge"), js.count("gw-judge-2")) == (2, 1)


FREEZES = """
import gc, json, sys
from mcptest.llm.imports import LitellmLoader
if sys.argv[1] == "console":
    gc.freeze()  # as the console script's main() does with its start-up
before = gc.get_freeze_count()
counts, made = [], []
for _ in range(3):  # three runs in one process: --watch cycles, a pytest session, a library
    LitellmLoader().get()
    counts.append(gc.get_freeze_count())
    made.append([[] for _ in range(1000)])  # what the caller makes between two runs
print(json.dumps([before, counts]))
"""


@pytest.mark.parametrize("mode", ["console", "library"])
def test_litellm_is_frozen_once_and_only_in_the_console_scripts_process(mode: str) -> None:
    """A freeze takes whatever is alive out of the collector's view for good: done on every
    loader, each run of a long-lived process froze what the caller had made meanwhile."""
    out = subprocess.run([sys.executable, "-c", FREEZES, mode], capture_output=True, text=True,
                         check=True, timeout=120, env={"PATH": "/usr/bin:/bin"})
    before, counts = json.loads(out.stdout)
    if mode == "library":
        assert before == 0 and counts == [0, 0, 0]
    else:
        assert before > 0 and counts[0] > before  # litellm's objects, frozen once
        assert counts[2] <= counts[1] <= counts[0]  # and never again (frozen ones may go)
