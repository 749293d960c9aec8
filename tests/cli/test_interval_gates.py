"""Issue 35, item 7 through the CLI: a repeated row's gate holds the lower end of its interval
by default (docs/baseline.md, "The gate holds the interval"): Wilson's over its runs, or the
judge-corrected one where a calibration record measured the judge; `--min-pass-rate-on
estimate` (or the test's key) holds the point estimate; a floor of 1 and a single run have no
interval to hold, and the report says what decided."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import REPO, greet_suite, on_shared_server
from support.judge_errors import worked_labels
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode
from mcptest.stats.intervals import wilson
from mcptest.stats.judge_correction import JudgeErrors, correct

pytestmark = pytest.mark.slow  # starts the example server for every run
PASS = Verdict(0.9, reason="polite")
FAIL = Verdict(0.2, reason="rude")


def _run(tmp_path: Path, suite: str | Path, *args: str, env: dict[str, str]
         ) -> tuple[Ran, dict[str, Any], str]:
    """`mcptest run` with the terminal, JSON and markdown reports; the latter two read back."""
    out, md = tmp_path / "out.json", tmp_path / "out.md"
    r = cli("run", suite, "--no-cache", "--reporter", "pretty", "--reporter", "json",
            "--output", out, "--reporter", "md", "--output", md, *args, cwd=tmp_path, env=env)
    assert out.is_file(), r.stdout + r.stderr
    return r, json.loads(out.read_text(encoding="utf-8")), md.read_text(encoding="utf-8")


def test_nine_of_ten_do_not_show_0_8_by_default_and_do_on_the_estimate(tmp_path: Path) -> None:
    """9 passes of 10 reach min_pass_rate 0.8 as an estimate (0.90), but Wilson's 95% interval
    [0.60, 0.98] does not show it: the default fails the row, the point option passes it."""
    suite = greet_suite(tmp_path, "\n    repeat: 10\n    min_pass_rate: 0.8")
    low = wilson(9, 10)
    assert low is not None
    held = f"pass rate 9/10 = 0.90, 95% lower bound {low[0]:.2f} < min_pass_rate 0.80: not met"
    with JudgeServer() as js:
        js.script("judge-x", [PASS] * 4 + [FAIL] + [PASS] * 5)
        r, data, md = _run(tmp_path, suite, env=js.gateway_env())
        js.script("judge-x", [PASS] * 4 + [FAIL] + [PASS] * 5)
        point, point_data, point_md = _run(tmp_path, suite, "--min-pass-rate-on", "estimate",
                                           env=js.gateway_env())
    [t] = data["tests"]
    stats = t["repeat"]
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout
    assert (t["status"], stats["passed"], stats["pass_rate"], stats["met"]) == \
        ("flaky", 9, 0.9, False)
    assert (stats["min_pass_rate_on"], stats["gated_on"], stats["gated_value"]) == \
        ("lower_bound", "lower_bound", round(low[0], 6))
    assert held in t["message"]
    assert "gate: 95% lower bound 0.60 < min_pass_rate 0.80: not met" in r.stdout
    assert "| 95% lower bound 0.60 < min_pass_rate 0.80: not met |" in md  # the Repeats table

    [p] = point_data["tests"]
    assert point.returncode == ExitCode.OK, point.stdout
    assert (p["status"], p["repeat"]["met"], p["repeat"]["gated_on"],
            p["repeat"]["gated_value"]) == ("flaky", True, "estimate", 0.9)
    assert "gate: estimate 0.90 ≥ min_pass_rate 0.80 (asked for): met" in point.stdout
    assert "estimate 0.90 ≥ min_pass_rate 0.80 (asked for): met" in point_md


def test_a_test_asks_for_the_estimate_with_its_own_key(tmp_path: Path) -> None:
    """5 of 5 always passing: lower bound 0.57 < 0.8 fails by default with a message saying to
    repeat more or gate on the estimate; the test's own `min_pass_rate_on: estimate` passes."""
    base = "\n    repeat: 5\n    min_pass_rate: 0.8"
    matcher = '{exact: "Hello, Ada!"}'
    failing = greet_suite(tmp_path, base, matcher)
    with JudgeServer() as js:
        r, data, _ = _run(tmp_path, failing, env=js.gateway_env())
        [t] = data["tests"]
        assert r.returncode == ExitCode.TESTS_FAILED and t["status"] == "failed"
        assert t["message"] == (
            "passed 5 of 5 scored repetitions, but the lower bound does not reach min_pass_rate "
            "(pass rate 5/5 = 1.00, 95% lower bound 0.57 < min_pass_rate 0.80: not met): "
            "repeat it more, or gate on the estimate (min_pass_rate_on: estimate)")
        own = greet_suite(tmp_path, base + "\n    min_pass_rate_on: estimate", matcher)
        r, data, _ = _run(tmp_path, own, env=js.gateway_env())
    [t] = data["tests"]
    assert r.returncode == ExitCode.OK, r.stdout
    assert (t["status"], t["repeat"]["gated_on"], t["repeat"]["gated_value"]) == \
        ("passed", "estimate", 1.0)


def test_without_interval_data_the_count_or_the_verdict_decides(tmp_path: Path) -> None:
    """The default floor of 1 asks every run to pass: no interval reaches 1, so the count
    decides and the report says so; a row that runs once has no rate and no gate (its verdict
    decides: `repeat` is null)."""
    with JudgeServer() as js:
        js.script("judge-x", [PASS, PASS, FAIL])
        r, data, md = _run(tmp_path, greet_suite(tmp_path, "\n    repeat: 3"),
                           env=js.gateway_env())
        [t] = data["tests"]
        assert r.returncode == ExitCode.TESTS_FAILED
        assert (t["status"], t["repeat"]["min_pass_rate_on"], t["repeat"]["gated_on"],
                t["repeat"]["gated_value"], t["repeat"]["met"]) == \
            ("flaky", "lower_bound", "estimate", 0.666667, False)
        words = "every scored run must pass (no interval reaches 1; the count decides): not met"
        assert words in t["message"] and words in r.stdout and words in md
        js.script("judge-x", PASS)
        once, data, _ = _run(tmp_path, greet_suite(tmp_path, "\n    min_pass_rate: 0.8"),
                             env=js.gateway_env())
    [t] = data["tests"]
    assert once.returncode == ExitCode.OK, once.stdout
    assert (t["status"], t["repeat"]) == ("passed", None)


SERVER_OUTPUT = "Deployed billing v2.4.1 to production."


def test_a_labelled_judge_is_held_on_its_corrected_lower_bound(tmp_path: Path) -> None:
    """The worked calibration example (50 labels, the judge wrong on 6): its judge passes 5 of
    5 repetitions. Wilson's lower end (0.57) would show 0.5, the corrected one (0.40, the
    labels' uncertainty too) does not: the default fails the row; the estimate passes it."""
    shutil.copytree(REPO / "examples" / "calibration", tmp_path / "calibration")
    shutil.copytree(REPO / "examples" / "server", tmp_path / "server")
    suite = on_shared_server(tmp_path / "calibration" / "mcptest.yml")
    want = correct(5, 5, JudgeErrors(20, 16, 30, 28))
    low = wilson(5, 5)
    assert want is not None and low is not None and want.low < 0.5 < low[0]
    with JudgeServer() as js:
        env = {**js.gateway_env(), "MCPTEST_PYTHON": sys.executable}
        labels = worked_labels(js, tmp_path)
        cal = cli("calibrate", suite, "--labels", labels, "--no-cache", env=env)
        assert cal.returncode == 0, cal.stdout + cal.stderr
        js.script("release-judge", Verdict(score=0.9), candidate=SERVER_OUTPUT)
        args = ("--repeat", "5", "--min-pass-rate", "0.5")
        r, data, md = _run(tmp_path, suite, *args, env=env)
        point, point_data, _ = _run(tmp_path, suite, *args, "--min-pass-rate-on", "estimate",
                                    env=env)
    [t] = data["tests"]
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout
    assert (t["status"], t["repeat"]["passed"], t["repeat"]["met"]) == ("failed", 5, False)
    assert (t["repeat"]["gated_on"], t["repeat"]["gated_value"]) == \
        ("corrected_lower_bound", round(want.low, 6))
    held = (f"pass rate 5/5 = 1.00, judge-corrected 95% lower bound {want.low:.2f} < "
            "min_pass_rate 0.50: not met")
    assert held in t["message"] and held in r.stdout
    assert f"| judge-corrected 95% lower bound {want.low:.2f} < min_pass_rate 0.50: not met |" \
        in md  # the Repeats table's gate column
    [p] = point_data["tests"]
    assert point.returncode == ExitCode.OK, point.stdout
    assert (p["status"], p["repeat"]["met"], p["repeat"]["gated_on"]) == \
        ("passed", True, "estimate")


def test_an_adaptive_row_stops_on_the_same_gate(tmp_path: Path) -> None:
    """A first failure opens the row. On the estimate five passes of at most ten already meet
    0.5 (six runs, curtailed: tests/cli/test_adaptive_repeat_cli.py); on the default lower end
    of ten runs it takes 9 passes of 10 (lower end 0.60), so the row runs all ten and its merged
    gate agrees with what stopped it."""
    suite = greet_suite(tmp_path, "\n    repeat: adaptive\n    min_pass_rate: 0.5")
    low = wilson(9, 10)
    assert low is not None
    with JudgeServer() as js:
        js.script("judge-x", [FAIL] + [PASS] * 9)
        r, data, _ = _run(tmp_path, suite, env=js.gateway_env())
        assert js.count("judge-x") == 10
    [t] = data["tests"]
    assert r.returncode == ExitCode.OK, r.stdout
    stats = t["repeat"]
    assert (t["status"], stats["runs"], stats["passed"], stats["decided_by"], stats["met"]) == \
        ("flaky", 10, 9, "limit", True)
    assert (stats["gated_on"], stats["gated_value"]) == ("lower_bound", round(low[0], 6))


def test_an_adaptive_row_takes_the_runs_its_gate_needs(tmp_path: Path) -> None:
    """At a floor of 0.7 on the lower end, ten runs can never meet it after a failure (9 of 10:
    0.60), so with no MAX given the row may take the fewest runs at which one failure and every
    later pass still meet it (14 of 15: Wilson's lower end 0.70), and it passes there; a MAX
    given on the command line is kept: at 12 no count can meet 0.7 (11 of 12: 0.65), so the
    first failure decides. (A floor of 0.8 checks the same with 25 runs, each a server start.)"""
    suite = greet_suite(tmp_path, "\n    repeat: adaptive\n    min_pass_rate: 0.7")
    need = next(n for n in range(10, 101) if (w := wilson(n - 1, n)) and w[0] >= 0.7)
    assert need == 15  # the gate's own arithmetic, not the code under test
    with JudgeServer() as js:
        js.script("judge-x", [FAIL] + [PASS] * (need - 1))
        r, data, _ = _run(tmp_path, suite, env=js.gateway_env())
        assert js.count("judge-x") == need
        js.script("judge-x", [FAIL] + [PASS] * 11)
        capped, capped_data, _ = _run(tmp_path, suite, "--repeat", "adaptive:12",
                                      env=js.gateway_env())
        assert js.count("judge-x") == need + 1  # no count of 12 can meet it: decided at once
    [t] = data["tests"]
    assert r.returncode == ExitCode.OK, r.stdout
    assert (t["status"], t["repeat"]["runs"], t["repeat"]["passed"], t["repeat"]["met"]) == \
        ("flaky", need, need - 1, True)
    assert data["summary"]["adaptive"]["most"] == need
    [c] = capped_data["tests"]
    assert capped.returncode == ExitCode.TESTS_FAILED, capped.stdout
    assert (c["status"], c["repeat"], capped_data["summary"]["adaptive"]["most"]) == \
        ("failed", None, 12)
