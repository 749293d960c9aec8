"""Nothing is imported or built in the event loop while a request to a server is timed.

A tool test's `duration_ms` is "the request's own time, measured around it (not the grading)"
(docs/suites.md). A test's grading runs beside the next test's request, and a judged run warms
its report modules while it waits for its first answer: a first import there (tens of
milliseconds) held the loop while a request was timed, and the second test of a run took
30 ms against 2 ms for the others. So the grading modules (`TOOL_GRADING`) are ready before the
first request is timed, and a run that times requests warms `AFTER_ANSWER` before it starts
(run/warm.py).

Each case runs the CLI in a fresh process (the modules must not be imported yet) around the
runner's own timed call (`mcptest.run.client_test.call`), and prints which of those modules got
imported, or which of those models got built, while a call was in flight.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_run import STDIO_HEAD
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts a server in a fresh process

PROBE = r"""
import importlib, json, sys
from mcptest.run.warm import AFTER_ANSWER, TOOL_GRADING

client_test = importlib.import_module("mcptest.run.client_test")
watched = TOOL_GRADING + AFTER_ANSWER + ("mcptest.suite.models.cases:ToolTest",)


def ready():
    out = set()
    for entry in watched:
        name, _, model = entry.partition(":")
        module = sys.modules.get(name)
        if module is not None:
            out.add(name)
            if model and getattr(module, model).__pydantic_complete__:
                out.add(entry)
    return out


calls, during = [], []
timed = client_test.call


async def call(*args, **kwargs):
    before = ready()
    try:
        return await timed(*args, **kwargs)
    finally:
        calls.append(1)
        during.extend(sorted(ready() - before))


client_test.call = call
from mcptest.cli.main import main

code = main(sys.argv[1:])
print(json.dumps({"code": code, "calls": len(calls), "during": during}))
"""


def _suite(tmp_path: Path, judged: bool) -> Path:
    """Four tool tests; `judged`: the first also asks a judge, so the run's first judge request
    leaves after the first call and its wait overlaps the other three."""
    judge = """
      - target: result.content[0].text
        matcher: {llm-judge: {rubric: "A greeting.", model: judge-a}}""" if judged else ""
    tools = "\n".join(f"""
  - name: greet {i}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{exact: "Hello, Ada!"}}{judge if i == 0 else ""}""" for i in range(4))
    path = tmp_path / "suite.yml"
    path.write_text(f"""{STDIO_HEAD}tools:{tools}
""", encoding="utf-8")
    return path


def _probe(suite: Path, env: dict[str, str], *flags: str) -> dict[str, object]:
    r = subprocess.run([sys.executable, "-c", PROBE, "run", str(suite), "--no-cache",
                        "--reporter", "json", "--output", str(suite.parent / "r.json"), *flags],
                       capture_output=True, text=True, env=env, cwd=suite.parent, timeout=120)
    assert r.returncode == 0, r.stderr
    return dict(json.loads(r.stdout.splitlines()[-1]))


def test_a_tool_run_grades_with_nothing_left_to_import(tmp_path: Path) -> None:
    got = _probe(_suite(tmp_path, judged=False), dict(os.environ))
    assert got == {"code": 0, "calls": 4, "during": []}


def test_a_judged_run_that_times_requests_warms_before_it_starts(tmp_path: Path) -> None:
    with JudgeServer() as js:
        # the answer comes late, so a warm-up while waiting for it would meet the tool calls
        js.script("judge-a", Verdict(0.9, latency=0.5))
        got = _probe(_suite(tmp_path, judged=True), {**os.environ, **js.gateway_env()})
        assert js.count("judge-a") == 1
    assert got == {"code": 0, "calls": 4, "during": []}
