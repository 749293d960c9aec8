"""`--repeat`, per-test `repeat:` and `min_pass_rate` as a user runs them: the example server, a
scripted loopback judge whose verdicts alternate, and a baseline with repeats on both sides."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import greet_suite
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts real servers or subprocesses
PASS, FAIL = Verdict(0.9, reason="polite"), Verdict(0.1, reason="rude")


def mcptest(js: JudgeServer, tmp_path: Path, *args: str | Path
            ) -> tuple[Ran, dict]:
    out = tmp_path / "out.json"
    r = cli("run", *args, "--reporter", "json", "--output", out, "--reporter", "md", "--output",
            tmp_path / "out.md", env=js.gateway_env(), cwd=tmp_path)
    assert out.exists(), r.stderr
    return r, json.loads(out.read_text(encoding="utf-8"))


def test_alternating_judge_is_flaky_with_its_pass_rate(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-x", [PASS, FAIL, PASS, FAIL])
        r, data = mcptest(js, tmp_path, greet_suite(tmp_path), "--repeat", "4", "--no-cache")
        assert js.count("judge-x") == 4  # a fresh judge call per repetition
    assert r.returncode == 1, r.stderr
    t = data["tests"][0]
    assert t["status"] == "flaky"
    assert (t["repeat"]["runs"], t["repeat"]["passed"], t["repeat"]["pass_rate"]) == (4, 2, 0.5)
    assert (t["repeat"]["score_min"], t["repeat"]["score_max"]) == (0.1, 0.9)
    assert t["repeat"]["score_stdev"] > 0.4
    assert [x["status"] for x in t["repetitions"]] == ["passed", "failed", "passed", "failed"]
    assert data["summary"]["counts"]["flaky"] == 1
    assert data["summary"]["gaps"] == {"flaky": 1}
    assert "🎲" in (tmp_path / "out.md").read_text(encoding="utf-8")


def test_min_pass_rate_and_per_test_repeat(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("judge-x", [PASS, FAIL, PASS])
        r, data = mcptest(js, tmp_path, greet_suite(
            tmp_path, "\n    repeat: 3\n    min_pass_rate: 0.6\n    min_pass_rate_on: estimate"),
                          "--no-cache")
        assert js.count("judge-x") == 3
    assert r.returncode == 0, r.stderr  # 2 of 3 ≥ 0.6: tolerated, still reported flaky
    t = data["tests"][0]
    assert (t["status"], t["repeat"]["met"], t["repeat"]["min_pass_rate"]) == ("flaky", True, 0.6)
    assert (t["repeat"]["gated_on"], t["repeat"]["gated_value"]) == ("estimate", 0.666667)


def test_repetitions_after_the_first_bypass_the_cache_unless_asked(tmp_path: Path) -> None:
    name = greet_suite(tmp_path)
    cache = tmp_path / "cache"
    with JudgeServer() as js:
        js.script("judge-x", PASS)
        mcptest(js, tmp_path, name, "--repeat", "3", "--cache-dir", cache)
        assert js.count("judge-x") == 3
        r, data = mcptest(js, tmp_path, name, "--repeat", "3", "--cache-dir", cache)
        assert js.count("judge-x") == 5  # the first repetition came from the cache
        assert data["tests"][0]["repetitions"][0]["cache_hits"] == 1
        mcptest(js, tmp_path, name, "--repeat", "3", "--cache-dir", cache, "--cache-repeats")
        assert js.count("judge-x") == 5  # asked: every repetition may use the cache
    assert r.returncode == 0 and data["tests"][0]["status"] == "passed"


def run_five(tmp_path: Path, steps: list[Verdict], *extra: str | Path
             ) -> tuple[Ran, dict]:
    with JudgeServer() as js:
        js.script("judge-x", steps)
        return mcptest(js, tmp_path, greet_suite(tmp_path), "--repeat", "5", "--no-cache", *extra)


def test_with_repeats_on_both_sides_only_a_significant_drop_regresses(tmp_path: Path) -> None:
    _, base = run_five(tmp_path, [PASS, PASS, PASS, PASS, FAIL])
    saved = tmp_path / "base.json"
    saved.write_text(json.dumps(base), encoding="utf-8")
    r, noisy = run_five(tmp_path, [PASS, PASS, PASS, FAIL, FAIL], "--baseline", saved,
                        "--fail-on", "regressed")
    row = noisy["comparison"]["rows"][0]
    assert (row["change"], row["old_pass_rate"], row["new_pass_rate"]) == (
        "insufficient_data", 0.8, 0.6)
    assert r.returncode == 0, r.stderr  # 4/5 → 3/5 does not block the pull request
    # an unpriced judge: the cost is unknown on both sides, never $0
    assert noisy["comparison"]["cost_delta_usd"] is None
    assert "unknown" in (tmp_path / "out.md").read_text(encoding="utf-8")

    _, perfect = run_five(tmp_path, [PASS])
    saved.write_text(json.dumps(perfect), encoding="utf-8")
    r, broken = run_five(tmp_path, [FAIL], "--baseline", saved, "--fail-on", "regressed")
    row = broken["comparison"]["rows"][0]
    assert row["change"] == "regressed" and row["p_value"] < 0.05
    assert r.returncode == 1


def test_the_run_agreement_of_a_repeated_run_covers_every_repetition(tmp_path: Path) -> None:
    """A panel split in the first repetition and unanimous in the second: the run's alpha is
    over both (it was the first repetition's alone)."""
    import krippendorff

    (tmp_path / "evals.yml").write_text("""evals:
  - name: answer
    prompt: p
    response: "answer"
    rubric: "Is good."
    judge: {panel: [judge-a, judge-b, judge-c]}
""", encoding="utf-8")
    with JudgeServer() as js:
        js.script("judge-a", Verdict(0.9))
        js.script("judge-b", [Verdict(0.1), Verdict(0.9)])
        js.script("judge-c", Verdict(0.9))
        out = tmp_path / "out.json"
        r = cli("eval", "evals.yml", "--repeat", "2", "--no-cache", "--reporter", "json",
                "--output", out, env=js.gateway_env(), cwd=tmp_path)
    assert out.exists(), r.stderr
    summary = json.loads(out.read_text(encoding="utf-8"))["summary"]
    data = [[0.9, 0.9], [0.1, 0.9], [0.9, 0.9]]  # rows: judges; columns: repetitions
    want = krippendorff.alpha(reliability_data=data, level_of_measurement="interval")
    assert summary["run_agreement"] == pytest.approx(want, abs=1e-9)
