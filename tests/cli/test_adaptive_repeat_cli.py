"""`--repeat adaptive:MAX` and `repeat: adaptive` as a user runs them (docs/statistics.md,
"Adaptive repeats"): the example server and a scripted loopback judge; each row runs once and
again only while its answer is open."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import greet_suite
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts real servers and subprocesses
PASS, FAIL = Verdict(0.9, reason="polite"), Verdict(0.1, reason="rude")


def mcptest(js: JudgeServer, tmp_path: Path, *args: str | Path, out: str = "out.json"
            ) -> tuple[Ran, dict]:
    """`mcptest run ARGS` in the test's process (support/cli_inproc.py), with the environment a
    subprocess would be given: PATH, HOME and the judge server's."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
           **js.gateway_env()}
    r = cli("run", *args, "--no-cache", "--reporter", "json", "--output", out, "--reporter", "md",
            "--output", "out.md", "--reporter", "pretty", env=env, inherit=False, cwd=tmp_path)
    assert (tmp_path / out).exists(), r.stderr
    return r, json.loads((tmp_path / out).read_text(encoding="utf-8"))


def test_a_clear_pass_runs_once(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-x", [PASS])
        r, data = mcptest(js, tmp_path, greet_suite(tmp_path), "--repeat", "adaptive:10")
        assert js.count("judge-x") == 1
    assert r.returncode == 0, r.stderr
    t = data["tests"][0]
    assert t["status"] == "passed" and t["repeat"] is None
    a = data["summary"]["adaptive"]
    assert (a["rows"], a["one_run"], a["runs"], a["most"]) == (1, 1, 1, 10)
    assert "adaptive repeats: 1 row(s), 1 settled by one run, 0 repeated, 1 runs where a " \
           "fixed 10 takes 10" in r.stdout


def test_an_open_row_stops_as_soon_as_its_answer_is_known(tmp_path: Path) -> None:
    """min_pass_rate 0.5 on the estimate: a first failure leaves it open; five passes of at
    most ten then meet it whatever the rest would say, so it stops at six runs (curtailed)."""
    with JudgeServer() as js:
        js.script("judge-x", [FAIL, PASS, PASS, PASS, PASS, PASS, FAIL, FAIL, FAIL, FAIL])
        r, data = mcptest(js, tmp_path, greet_suite(
            tmp_path, "\n    repeat: adaptive\n    min_pass_rate: 0.5\n"
                      "    min_pass_rate_on: estimate"))
        assert js.count("judge-x") == 6
    assert r.returncode == 0, r.stderr
    t = data["tests"][0]
    assert t["status"] == "flaky" and t["repeat"]["met"]
    assert (t["repeat"]["runs"], t["repeat"]["passed"], t["repeat"]["decided_by"]) == \
        (6, 5, "curtailed")
    assert data["summary"]["adaptive"]["decided"] == {"curtailed": 1}
    assert "(mean 6 runs; 1 curtailed)" in (tmp_path / "out.md").read_text(encoding="utf-8")


def test_a_change_against_the_baseline_that_is_flakiness_says_so(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-x", [FAIL, PASS, FAIL])
        suite = greet_suite(tmp_path)
        mcptest(js, tmp_path, suite, out="base.json")  # the baseline failed
        r, data = mcptest(js, tmp_path, suite, "--repeat", "adaptive",
                          "--baseline", "base.json")
        assert js.count("judge-x") == 3  # passed (changed: open), then failed: decided
    t = data["tests"][0]
    assert t["status"] == "flaky" and not t["repeat"]["met"]
    assert t["repeat"]["opened_by_change"] and t["repeat"]["decided_by"] == "sequence"
    assert data["summary"]["adaptive"]["flaky_not_changed"] == ["greets politely"]
    assert "flaky rather than changed: greets politely" in r.stdout


def test_a_bad_adaptive_count_is_a_usage_error(tmp_path: Path) -> None:
    r = cli("run", greet_suite(tmp_path), "--repeat", "adaptive:1", cwd=tmp_path)
    assert r.returncode == 2 and "must be between 2 and 100" in r.stderr
