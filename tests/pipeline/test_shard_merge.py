"""`mcptest merge` takes the shards of one run, each once, and gives the report that run gives.

docs/action.md, "Shards": every shard carries the whole run's test list and split; the merge
refuses shards of another run or a shard given twice (exit 2), a repeated run keeps its shard
block, and the run-level agreement is recomputed from the merged rows.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server per run


def _tool(name: str, total: int) -> str:
    return f"""  - name: {name}
    server: ex
    tool: search_services
    args: {{query: payments, limit: 1}}
    expect:
      - {{target: result.structuredContent.total, matcher: {{exact: {total}}}}}
"""


def _suite(path: Path, *tests: tuple[str, int]) -> Path:
    path.write_text(HEAD + "tools:\n" + "".join(_tool(n, t) for n, t in tests),
                    encoding="utf-8")
    return path


def _shard(suite: Path, i: int, n: int, out: Path, *extra: str) -> dict[str, Any]:
    r = cli("run", suite, "--reporter", "json", "--output", out, "--shard", f"{i}/{n}",
                *extra)
    assert out.is_file(), r.stderr
    return json.loads(out.read_text(encoding="utf-8"))


def test_shards_of_different_runs_are_refused(tmp_path: Path) -> None:
    """Shard 1/2 of a suite whose second test fails, with shard 2/2 of another suite, merged
    to "2 passed of 2" before: the failing test never ran."""
    s12 = _suite(tmp_path / "s12.yml", ("good", 2), ("bad", 3))
    ok = _suite(tmp_path / "ok.yml", ("g1", 2), ("g2", 2))
    x1, x2 = tmp_path / "x1.json", tmp_path / "x2.json"
    assert [t["name"] for t in _shard(s12, 1, 2, x1)["tests"]] == ["good"]
    assert [t["name"] for t in _shard(ok, 2, 2, x2)["tests"]] == ["g2"]
    r = cli("merge", x1, x2)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stdout
    assert f"merge: {x2} not from the same run as {x1}" in r.stderr
    # a different split of the same suite is another run too
    y3 = tmp_path / "y3.json"
    _shard(s12, 2, 3, y3)
    r = cli("merge", x1, y3)
    assert r.returncode == ExitCode.USAGE_ERROR and f"{y3} not from the same run as {x1}" in r.stderr


def test_a_shard_given_twice_is_named(tmp_path: Path) -> None:
    s12 = _suite(tmp_path / "s12.yml", ("good", 2), ("bad", 3))
    sh1 = tmp_path / "sh1.json"
    _shard(s12, 1, 2, sh1)
    r = cli("merge", sh1, sh1)
    assert r.returncode == ExitCode.USAGE_ERROR
    assert f"shard 1/2 given more than once ({sh1}, {sh1})" in r.stderr
    assert "missing" not in r.stderr


def test_a_repeated_shard_keeps_its_shard_block(tmp_path: Path) -> None:
    """`--repeat N --shard i/n` wrote `"shard": null`: shard 1/2 alone merged to exit 0."""
    s12 = _suite(tmp_path / "s12.yml", ("good", 2), ("bad", 3))
    q1, q2 = tmp_path / "q1.json", tmp_path / "q2.json"
    rep = _shard(s12, 1, 2, q1, "--repeat", "2")
    assert rep["shard"] == {"index": 1, "count": 2, "run_max_cost_usd": None,
                            "plan": [t["id"] for t in rep["tests"]]
                            + [rep["shard"]["plan"][1]]}
    assert rep["tests"][0]["repeat"] is not None  # it did repeat
    alone = cli("merge", q1)
    assert alone.returncode == ExitCode.USAGE_ERROR and "missing shard(s) 2/2" in alone.stderr
    _shard(s12, 2, 2, q2)  # a normal shard with a repeated one: the same run's test list
    merged = tmp_path / "m.json"
    r = cli("merge", q1, q2, "--output", merged)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    m = json.loads(merged.read_text(encoding="utf-8"))
    assert [t["name"] for t in m["tests"]] == ["good", "bad"]


def test_the_merged_report_recomputes_the_run_agreement(tmp_path: Path,
                                                       js: JudgeServer) -> None:
    """A merged report printed "run agreement α n/a" where the unsharded run gave a value."""
    scores = {"R1": (0.9, 0.8), "R2": (0.2, 0.3), "R3": (0.9, 0.1), "R4": (0.6, 0.7)}
    for rubric, (a, b) in scores.items():
        js.script("juror-a", [Verdict(score=a)], rubric=rubric)
        js.script("juror-b", [Verdict(score=b)], rubric=rubric)
    labels = {"L1": ("good", "good"), "L2": ("good", "bad"), "L3": ("bad", "bad"),
              "L4": ("bad", "bad")}
    for rubric, (a, b) in labels.items():
        js.script("juror-a", [Verdict(score=None, label=a)], rubric=rubric)
        js.script("juror-b", [Verdict(score=None, label=b)], rubric=rubric)
    kinds = {r: "" for r in scores} | {
        r: ", verdict_kind: categorical, labels: [good, bad], passing_labels: [good]"
        for r in labels}
    path = tmp_path / "jury.yml"
    path.write_text(HEAD + "tools:\n" + "".join(f"""  - name: note {rubric}
    server: ex
    tool: release_note
    args: {{service: billing, tag: v1.2.3}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury: {{rubric: "{rubric}", jurors: [{{model: juror-a}}, {{model: juror-b}}]{kind}}}
""" for rubric, kind in kinds.items()), encoding="utf-8")
    env = js.gateway_env()
    whole = tmp_path / "whole.json"
    cli("run", path, "--no-cache", "--reporter", "json", "--output", whole, env=env)
    w = json.loads(whole.read_text(encoding="utf-8"))["summary"]
    assert w["run_agreement"] is not None and w["run_agreement_labels"] is not None
    outs = []
    for i in (1, 2):
        out = tmp_path / f"j{i}.json"
        cli("run", path, "--no-cache", "--reporter", "json", "--output", out,
                "--shard", f"{i}/2", env=env)
        shard = json.loads(out.read_text(encoding="utf-8"))
        assert shard["summary"]["run_agreement"] != w["run_agreement"]  # a shard sees less
        assert shard["summary"]["run_agreement_labels"] != w["run_agreement_labels"]
        outs.append(out)
    merged = tmp_path / "merged.json"
    r = cli("merge", *outs, "--output", merged, "--format", "json")
    assert merged.is_file(), r.stderr
    m = json.loads(merged.read_text(encoding="utf-8"))["summary"]
    assert m["run_agreement"] == w["run_agreement"]
    assert m["run_agreement_labels"] == w["run_agreement_labels"]
    pretty = cli("merge", *outs, "--format", "pretty")
    assert f"run agreement α {w['run_agreement']:.2f}" in pretty.stdout
    assert f"labels α (nominal) {w['run_agreement_labels']:.2f}" in pretty.stdout
