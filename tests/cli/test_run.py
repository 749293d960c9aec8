"""`mcptest run` end to end: real example servers, real files, exit codes, stdout and stderr.

The commands run in the test's process (support/cli_inproc.py: the environment, working
directory and streams a subprocess would get). Where the process is the point it is a real one:
SIGTERM during a run, and the modules a deterministic run imports (a fresh interpreter)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"


def suite(tmp_path: Path, body: str, name: str = "suite.yml", *, shared: bool = False) -> Path:
    """The suite file on the example server as `ex`: a stdio one each run starts, or with
    `shared` the test process's own over HTTP (support.cli_run.HEAD), where its start, stderr
    and exit are not the point."""
    head = "\n" + HEAD if shared else f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
"""
    path = tmp_path / name
    path.write_text(head + body, encoding="utf-8")
    return path


def mcptest(*args: str | Path, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> Ran:
    """`mcptest ARGS` in the test's process, without provider keys, plus `env`."""
    return cli(*args, cwd=cwd, env=env)


def report(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


GREET = """
  - name: greets Ada
    server: ex
    tool: greet
    args: {name: Ada}
    tags: [quick]
    expect:
      - target: result.content[0].text
        matcher: {exact: "Hello, Ada!"}
"""

WRONG = """
  - name: greets the wrong person
    server: ex
    tool: greet
    args: {name: Bob}
    expect:
      - target: result.content[0].text
        matcher: {contains: "Ada"}
"""


def test_passing_run_exits_0_and_writes_every_requested_report(tmp_path: Path) -> None:
    path = suite(tmp_path, "tools:" + GREET, shared=True)
    out = tmp_path / "out"
    r = mcptest("run", path, "--reporter", "json", "--output", out / "run.json",
                "--reporter", "pretty")
    assert r.returncode == 0, r.stderr
    data = report(out / "run.json")
    assert data["summary"]["counts"]["passed"] == 1
    assert data["summary"]["exit_code"] == 0
    assert data["tests"][0]["location"]["line"] == 6
    assert data["tests"][0]["assertions"][0]["location"]["line"] == 12
    assert data["servers"][0]["status"] == "ready"
    assert "greets Ada" in r.stdout  # the pretty report went to stdout


def test_failure_exits_1_with_expected_and_actual(tmp_path: Path) -> None:
    path = suite(tmp_path, "tools:" + GREET + WRONG, shared=True)
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    failed = [t for t in data["tests"] if t["status"] == "failed"]
    assert [t["name"] for t in failed] == ["greets the wrong person"]
    assert failed[0]["gap"] == "shape"
    assert failed[0]["assertions"][0]["message"] == (
        'expected to contain "Ada", got "Hello, Bob!"')


JUDGE_STACK = ("mcptest.judging", "mcptest.evals", "mcptest.agents", "mcptest.calibrate",
               "mcptest.llm.engine", "mcptest.llm.model_client", "mcptest.llm.cost_bound")
"""What only a plan that judges imports (`pipeline.arun_plan`, `repeats`)."""


def test_deterministic_run_never_imports_litellm(tmp_path: Path) -> None:
    path = suite(tmp_path, "tools:" + GREET)
    code = (
        "import sys, json\n"
        "from mcptest.cli.main import main\n"
        f"rc = main(['run', {str(path)!r}, '--reporter', 'json', '--output', "
        f"{str(tmp_path / 'r.json')!r}])\n"
        "print(json.dumps({'rc': rc, 'litellm': sorted(m for m in sys.modules "
        "if m.split('.')[0] in ('litellm', 'openai')), 'judge': sorted(m for m in sys.modules "
        f"if m.startswith({JUDGE_STACK!r}))}}))\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {"rc": 0, "litellm": [],
                                                               "judge": []}


def test_server_that_never_starts_exits_3_and_other_servers_carry_on(tmp_path: Path) -> None:
    path = tmp_path / "two.yml"
    path.write_text(f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
  ghost:
    command: ["definitely-not-a-command-xyz", "--stdio"]
tools:
{GREET}
  - name: ghost answers
    server: ghost
    tool: anything
""", encoding="utf-8")
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 3, r.stderr
    data = json.loads(r.stdout)
    by_name = {t["name"]: t for t in data["tests"]}
    assert by_name["greets Ada"]["status"] == "passed"
    assert by_name["ghost answers"]["status"] == "error"
    assert by_name["ghost answers"]["gap"] == "environment"
    assert f"{path}:6:14: servers.ghost.command: " in r.stderr
    assert "command not found: definitely-not-a-command-xyz" in r.stderr
    assert "Traceback" not in r.stderr


def test_unreachable_url_exits_3_with_the_url_position(tmp_path: Path) -> None:
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    path = tmp_path / "remote.yml"
    path.write_text(f"""servers:
  remote:
    url: "http://127.0.0.1:{port}/mcp"
    startup_timeout: 5s
tools:
  - name: remote greets
    server: remote
    tool: greet
""", encoding="utf-8")
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 3, r.stderr
    lines = [line for line in r.stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1
    assert lines[0].startswith(f"error: {path}:3:10: servers.remote.url: ")
    assert "cannot connect" in lines[0]
    assert "Traceback" not in r.stderr
    test = json.loads(r.stdout)["tests"][0]
    assert (test["status"], test["gap"]) == ("error", "transport")


def test_timeout_errors_one_test_and_the_next_call_still_works(tmp_path: Path) -> None:
    path = suite(tmp_path, """tools:
  - name: too slow
    server: ex
    tool: slow
    args: {seconds: 5}
    timeout: 300ms
""" + GREET)
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 1, r.stderr
    by_name = {t["name"]: t for t in json.loads(r.stdout)["tests"]}
    assert by_name["too slow"]["status"] == "error"
    assert by_name["too slow"]["gap"] == "transport"
    assert "timed out after 0.3s" in by_name["too slow"]["message"]
    assert by_name["greets Ada"]["status"] == "passed"


def test_crash_errors_the_server_tests_with_the_cause(tmp_path: Path) -> None:
    path = suite(tmp_path, """tools:
  - name: crashes
    server: ex
    tool: crash
    args: {code: 3}
""" + GREET)
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 1, r.stderr
    tests = json.loads(r.stdout)["tests"]
    assert [t["status"] for t in tests] == ["error", "error"]
    assert all(t["gap"] == "transport" for t in tests)
    assert "crashing on purpose" in (tests[0]["server_stderr"] or "")


def test_error_answer_without_expectations_fails(tmp_path: Path) -> None:
    path = suite(tmp_path, """tools:
  - name: divide by zero
    server: ex
    tool: divide
    args: {a: 1, b: 0}
""", shared=True)
    r = mcptest("run", path, "--reporter", "json")
    assert r.returncode == 1, r.stderr
    t = json.loads(r.stdout)["tests"][0]
    assert (t["status"], t["gap"]) == ("failed", "tool-error")


def test_selection_filter_tag_shard_and_no_tests(tmp_path: Path) -> None:
    path = suite(tmp_path, "tools:" + GREET + WRONG, shared=True)
    r = mcptest("run", path, "--reporter", "json", "--filter", "re:^greets A")
    assert r.returncode == 0 and len(json.loads(r.stdout)["tests"]) == 1
    r = mcptest("run", path, "--reporter", "json", "--tag", "quick")
    assert [t["name"] for t in json.loads(r.stdout)["tests"]] == ["greets Ada"]
    r = mcptest("run", path, "--reporter", "json", "--skip-tag", "quick")
    assert [t["name"] for t in json.loads(r.stdout)["tests"]] == ["greets the wrong person"]
    r = mcptest("run", path, "--reporter", "json", "--filter", "nothing matches this")
    assert r.returncode == 7
    shards = []
    for i in (1, 2):
        out = tmp_path / f"shard{i}.json"
        mcptest("run", path, "--reporter", "json", "--output", out, "--shard", f"{i}/2")
        shards.append({t["name"] for t in report(out)["tests"]})
    assert shards[0] | shards[1] == {"greets Ada", "greets the wrong person"}
    assert not shards[0] & shards[1]
    merged = mcptest("merge", tmp_path / "shard1.json", tmp_path / "shard2.json")
    assert merged.returncode == 1
    assert json.loads(merged.stdout)["summary"]["counts"]["total"] == 2


def test_llm_assertions_without_keys_are_deferred_and_counted(tmp_path: Path) -> None:
    path = suite(tmp_path, """tools:
  - name: note reads well
    server: ex
    tool: release_note
    args: {service: billing, tag: v1.2.3}
    expect:
      - target: result.content[0].text
        matcher: {contains: "billing"}
      - target: result.content[0].text
        matcher:
          llm-judge: {rubric: "Reads as a deployment note.", model: gpt-4o-mini}
""", shared=True)
    env = {k: v for k, v in os.environ.items()
           if not k.endswith("_API_KEY") and not k.startswith("MCPTEST_JUDGE")}
    r = mcptest("run", path, "--reporter", "json", "--no-cache", env=env)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["summary"]["counts"]["deferred"] == 1
    assert data["tests"][0]["assertions"][1]["status"] == "deferred"
    r = mcptest("run", path, "--reporter", "json", "--no-cache", "--require-judge", env=env)
    assert r.returncode == 1
    assert json.loads(r.stdout)["tests"][0]["status"] == "failed"


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_still_writes_reports_with_what_the_run_had(tmp_path: Path) -> None:
    path = suite(tmp_path, "tools:" + GREET + """
  - name: hangs
    server: ex
    tool: slow
    args: {seconds: 60}
""")
    out = tmp_path / "run.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", str(path), "-v",
         "--reporter", "json", "--output", str(out)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    for line in proc.stderr:  # wait until the first test has finished, then stop the run
        if "greets Ada" in line:
            break
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=30)
    assert proc.returncode == 130
    data = report(out)
    assert data["summary"]["interrupted"] == "SIGTERM"
    by_name = {t["name"]: t for t in data["tests"]}
    assert by_name["greets Ada"]["status"] == "passed"
    assert by_name["hangs"]["status"] == "skipped"
    assert "interrupted (SIGTERM)" in by_name["hangs"]["message"]


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigterm_counts_judge_calls_in_flight_at_their_reserved_cost(tmp_path: Path) -> None:
    """A judge call cut by SIGTERM may still be billed: the report says its worst case."""
    from support.judge_server import Fault, JudgeServer, Verdict

    path = suite(tmp_path, """judge:
  model: judge-m
  max_tokens: 100
  pricing: {judge-m: {input: 1.0, output: 10.0}}
tools:
  - name: judged
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher: {llm-judge: {rubric: "Is it a greeting?"}}
""")
    out = tmp_path / "run.json"
    with JudgeServer() as js:
        js.script("judge-m", Fault.slow(60.0, Verdict(0.9)))
        proc = subprocess.Popen(
            [sys.executable, "-m", "mcptest", "run", str(path), "--no-cache", "--max-cost", "1",
             "--reporter", "json", "--output", str(out)],
            stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env={**os.environ, **js.gateway_env()})
        js.wait_for_requests(1)
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    assert proc.returncode == 130
    summary = report(out)["summary"]
    # worst case: the padded prompt at $1/M plus 100 completion tokens at $10/M
    assert 100 * 10.0 / 1e6 < summary["cost_usd"] < 0.01, summary
