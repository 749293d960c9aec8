"""Importing the engine or the LLM matchers must not import litellm (it costs seconds)."""

from __future__ import annotations

import subprocess
import sys

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
