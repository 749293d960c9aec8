"""The warm-up (src/mcptest/run/warm.py): what grading and reporting use is imported, and the
report's models built, while a judged run's first request waits for its answer, so nothing of
ours is imported once the answer is back (docs/architecture.md, "Costs").

Each check runs a fresh interpreter: in this one every module is imported already.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # fresh interpreters in subprocesses

WAIT_THEN_WARM = """
import json, sys, anyio
from mcptest.run.warm import warm_while_waiting

async def main():
    sent = anyio.Event()
    async with anyio.create_task_group() as tg:
        tg.start_soon(warm_while_waiting, sent, ["mcptest.report.models:Report",
                                                 "mcptest.no_such_module", "mcptest.report.build"])
        await anyio.lowlevel.checkpoint()
        before = "mcptest.report.models" in sys.modules
        sent.set()
    from mcptest.report.models import Report
    print(json.dumps([before, Report.__pydantic_complete__,
                      "mcptest.report.build" in sys.modules]))

anyio.run(main)
"""


def test_nothing_is_warmed_before_the_first_request_and_a_bad_entry_ends_the_warm_up() -> None:
    out = subprocess.run([sys.executable, "-c", WAIT_THEN_WARM], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr  # a module that cannot be imported raises nowhere
    # not before `sent`; the model is built; the warm-up stopped at the missing module
    assert json.loads(out.stdout) == [False, True, False]


# The CLI as its console script runs it, with an audit hook: a module of ours that an import
# statement loads after the judge's socket connected, other than inside the warm-up, was
# missed by the warm-up (the hook sees each module as it is first loaded).
AFTER_CONNECT = """
import json, sys
seen, state = [], {}
def warming():
    f = sys._getframe(2)
    while f is not None and f.f_code.co_name != "warm_while_waiting":
        f = f.f_back
    return f is not None
def hook(event, args):
    if event == "socket.connect":
        state["connected"] = True
    elif (event == "import" and state.get("connected") and args[0].startswith("mcptest")
          and not warming()):
        seen.append(args[0])
sys.addaudithook(hook)
import atexit
atexit.register(lambda: print(json.dumps(seen), file=sys.stderr))
from mcptest.cli.main import main
sys.argv = ["mcptest", *sys.argv[1:]]
main()
"""


def test_a_judged_eval_imports_nothing_of_ours_once_its_request_is_on_the_wire(
        tmp_path: Path) -> None:
    suite = tmp_path / "evals.yml"
    suite.write_text(yaml.safe_dump({"evals": [
        {"name": "release note", "prompt": "What was deployed?",
         "response": "Deployed billing-api v2.1.0.", "rubric": "Names the release.",
         "threshold": 0.5, "judge": {"model": "judge-a"}}]}), encoding="utf-8")
    with JudgeServer() as js:
        # a judge slower than the warm-up takes: each import then happens in the wait
        js.script("judge-a", [Verdict(score=0.9, latency=1.5)])
        env = {**os.environ, **js.gateway_env()}
        out = subprocess.run(
            [sys.executable, "-c", AFTER_CONNECT, "eval", "--config", str(suite), "--no-cache",
             "--reporter", "json", "--output", str(tmp_path / "report.json")],
            capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
        assert js.count("judge-a") == 1
    assert out.returncode == 0, out.stderr
    report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
    assert report["summary"]["counts"]["passed"] == 1
    assert json.loads(out.stderr.strip().splitlines()[-1]) == []
