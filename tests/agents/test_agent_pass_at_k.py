"""pass@k of repeated agent tests through the CLI (docs/agents.md, "Repeats and pass@k"): a
scripted model answers right in a known number of repetitions, and the JSON report, the
console and the PR-comment markdown carry the exact pass rate and unbiased pass@k."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from evals.conftest import judge_env
from support.cli_inproc import Ran
from support.cli_inproc import cli as inproc
from support.cli_run import HEAD
from support.judge_server import Fault, JudgeServer

from mcptest.grade.repeated_row import pass_at_k

pytestmark = pytest.mark.slow  # the CLI, the example server, five repetitions

RIGHT, WRONG = Fault.text("2 + 3 = 5."), Fault.text("2 + 3 = 6.")


def agent(name: str, model: str, extra: str) -> str:
    return f"""
  - name: {name}
    models: [{model}]
    servers: [ex]
    prompt: "What is 2 + 3?"
    {extra}
    expect:
      - {{target: final, matcher: {{contains: "= 5"}}}}
"""


def write_suite(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "agents.yml"
    path.write_text(f"\n{HEAD}agents:{body}", encoding="utf-8")
    return path


def cli(env: dict[str, str], cwd: Path, *args: str) -> Ran:
    """`mcptest ARGS` in this process with exactly `env`, as a subprocess given it."""
    return inproc(*args, cwd=cwd, env=env, inherit=False)


def test_pass_rate_and_pass_at_k_of_repeated_agents(tmp_path: Path, js: JudgeServer) -> None:
    # 2 of 5 right, k from the suite; 1 of 4 right, the default k (1 and the repeat count)
    js.script("gpt-4o", [RIGHT, WRONG, WRONG, RIGHT, WRONG])
    js.script("gpt-4o-b", [WRONG, RIGHT, WRONG, WRONG])
    # the gates hold the estimate (the default lower bound would need far more runs)
    on = "\n    min_pass_rate_on: estimate"
    path = write_suite(tmp_path, agent("sums", "gpt-4o", "repeat: 5\n    min_pass_rate: 0.4\n"
                                       "    pass_at_k: [3, 1, 2]" + on)
                       + agent("sums again", "gpt-4o-b", "repeat: 4\n    min_pass_rate: 0.25"
                               + on))
    done = cli(judge_env(js), tmp_path, "run", str(path), "--reporter", "json", "--output",
               "r.json", "--reporter", "md", "--output", "r.md", "--reporter", "pretty")
    assert done.returncode == 0, done.stdout + done.stderr  # flaky, but at min_pass_rate
    assert js.count("gpt-4o") == 5 and js.count("gpt-4o-b") == 4

    first, second = json.loads((tmp_path / "r.json").read_text())["tests"]
    assert first["status"] == second["status"] == "flaky"
    assert (first["repeat"]["runs"], first["repeat"]["passed"]) == (5, 2)
    assert first["repeat"]["pass_rate"] == 0.4
    # 1 - C(3,k)/C(5,k): 1 - 3/5, 1 - 3/10, 1 - 1/10
    assert first["repeat"]["pass_at_k"] == [{"k": 1, "value": 0.4}, {"k": 2, "value": 0.7},
                                            {"k": 3, "value": 0.9}]
    assert (second["repeat"]["runs"], second["repeat"]["passed"]) == (4, 1)
    assert second["repeat"]["pass_at_k"] == [{"k": 1, "value": 0.25}, {"k": 4, "value": 1.0}]

    # the pass rate with its Wilson 95% interval (2 of 5: [0.12, 0.77]; 1 of 4: [0.05, 0.70])
    assert ("passed 2/5 · pass rate 0.40 [0.12, 0.77] · gate: estimate 0.40 ≥ min_pass_rate "
            "0.40 (asked for): met · pass@1 0.40 · pass@2 0.70 · pass@3 0.90") in done.stdout
    assert ("passed 1/4 · pass rate 0.25 [0.05, 0.70] · gate: estimate 0.25 ≥ min_pass_rate "
            "0.25 (asked for): met · pass@1 0.25 · pass@4 1.00") in done.stdout
    md = (tmp_path / "r.md").read_text()
    assert ("| test | runs | scored | passed | pass rate [95% CI] | gate | pass@1 | pass@2 | "
            "pass@3 | pass@4 |") in md
    assert ("| sums | 5 | 5 | 2 | 0.40 [0.12, 0.77] | estimate 0.40 ≥ min_pass_rate 0.40 (asked "
            "for): met | 0.40 | 0.70 | 0.90 |  |") in md
    assert ("| sums again | 4 | 4 | 1 | 0.25 [0.05, 0.70] | estimate 0.25 ≥ min_pass_rate 0.25 "
            "(asked for): met | 0.25 |  |  | 1.00 |") in md


def test_a_k_above_the_repeat_count_is_a_load_error(tmp_path: Path) -> None:
    path = write_suite(tmp_path, agent("sums", "gpt-4o", "repeat: 3\n    pass_at_k: [1, 5]"))
    done = cli({"PATH": "/usr/bin:/bin"}, tmp_path, "validate", str(path))
    assert done.returncode == 2
    assert "agents.yml:11:16: agents[0].pass_at_k: " in done.stderr  # the value of the key
    assert "pass@5 needs at least 5 runs; repeat is 3" in done.stderr


def test_pass_at_k_with_adaptive_repeats_loads(tmp_path: Path) -> None:
    # The fuzz test found it: the k were compared with the word `adaptive` (a TypeError, exit 70).
    path = write_suite(tmp_path, agent("sums", "gpt-4o", "repeat: adaptive\n    pass_at_k: [1, 5]"))
    done = cli({"PATH": "/usr/bin:/bin"}, tmp_path, "validate", str(path))
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("n", "c", "k", "expected"), [
    (5, 2, 1, 0.4), (5, 2, 2, 0.7), (5, 2, 3, 0.9), (5, 0, 5, 0.0), (5, 5, 1, 1.0),
    (10, 3, 4, 1 - 35 / 210)])
def test_the_unbiased_estimator(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)
