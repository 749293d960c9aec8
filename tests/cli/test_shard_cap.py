"""One `--max-cost` for a sharded run (docs/scale.md): four shards of one suite, each printing
its slice of the run's cap in proportion to its tests' projected worst case; the slices sum to
the cap, each shard's report holds its slice and the run's cap, and `mcptest merge` reports the
total spend against the run's cap. `--max-cost-per-shard` keeps each shard's own cap."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD
from support.judge_server import JudgeServer, Verdict

from mcptest.judging.shard_slices import NANO_USD

pytestmark = pytest.mark.slow  # starts the example server per shard

JUDGED = '{llm-judge: {rubric: "The greeting is polite.", threshold: 0.5, model: judge-s}}'


def _suite(tmp_path: Path) -> Path:
    """Four tests dealt one per shard: two judged once, one judged by a jury of three, one
    deterministic (it projects nothing)."""
    jury = ('{llm-jury: {rubric: "Polite?", jurors: [{model: judge-s}, {model: judge-t}, '
            '{model: judge-u}]}}')
    tests = [("one", JUDGED), ("two", JUDGED), ("three", jury), ("plain", "{contains: Ada}")]
    path = tmp_path / "s.yml"
    path.write_text(HEAD + """judge:
  max_tokens: 100
  pricing:
    judge-s: {input: 1.0, output: 4.0}
    judge-t: {input: 1.0, output: 4.0}
    judge-u: {input: 1.0, output: 4.0}
tools:
""" + "".join(f"""  - name: {name}
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {matcher}
""" for name, matcher in tests), encoding="utf-8")
    return path


def _shards(js: JudgeServer, tmp_path: Path, *cap: str) -> list[tuple[dict[str, Any], str]]:
    suite = _suite(tmp_path)
    out = []
    for i in range(1, 5):
        path = tmp_path / f"shard{i}.json"
        r = cli("run", suite, "--shard", f"{i}/4", *cap, "--no-cache", "--reporter", "json",
                "--output", path, env=js.gateway_env(), cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        out.append((json.loads(path.read_text(encoding="utf-8")), r.stderr))
    return out


def test_four_shards_share_one_cap_and_the_merge_reports_it(tmp_path: Path) -> None:
    with JudgeServer() as js:
        for model in ("judge-s", "judge-t", "judge-u"):
            js.script(model, Verdict(0.9, completion_tokens=20))
        shards = _shards(js, tmp_path, "--max-cost", "0.05")
    slices = []
    for i, (report, stderr) in enumerate(shards, 1):
        said = re.search(rf"shard {i}/4 may spend \$(\S+) of the run's \$0\.050000 cap", stderr)
        assert said, stderr
        cap = report["summary"]["max_cost_usd"]
        assert f"{cap:.6f}" == said.group(1)
        assert report["shard"]["run_max_cost_usd"] == 0.05
        assert report["summary"]["cost_usd"] <= cap
        slices.append(cap)
    assert sum(round(s * NANO_USD) for s in slices) == round(0.05 * NANO_USD)
    # in proportion to the projected worst case: 1, 1, 3 judge calls of one price, and none
    assert slices[3] == 0.0
    assert slices[0] == slices[1] == pytest.approx(0.01)
    assert slices[2] == pytest.approx(0.03)
    merged = tmp_path / "merged.json"
    r = cli("merge", *(tmp_path / f"shard{i}.json" for i in range(1, 5)), "--output", merged)
    assert r.returncode == 0, r.stderr
    summary = json.loads(merged.read_text(encoding="utf-8"))["summary"]
    assert summary["max_cost_usd"] == 0.05
    assert summary["cost_usd"] == pytest.approx(sum(s["summary"]["cost_usd"] for s, _ in shards))
    assert 0 < summary["cost_usd"] <= 0.05


def test_max_cost_per_shard_keeps_each_shards_own_cap(tmp_path: Path) -> None:
    with JudgeServer() as js:
        for model in ("judge-s", "judge-t", "judge-u"):
            js.script(model, Verdict(0.9, completion_tokens=20))
        shards = _shards(js, tmp_path, "--max-cost-per-shard", "0.05")
    for report, stderr in shards:
        assert report["summary"]["max_cost_usd"] == 0.05 and "may spend" not in stderr
        assert report["shard"]["run_max_cost_usd"] is None
    merged = tmp_path / "merged.json"
    cli("merge", *(tmp_path / f"shard{i}.json" for i in range(1, 5)), "--output", merged)
    summary = json.loads(merged.read_text(encoding="utf-8"))["summary"]
    assert summary["max_cost_usd"] == pytest.approx(0.2)  # four shards' own caps


def test_both_caps_are_refused() -> None:
    r = cli("run", "x.yml", "--shard", "1/2", "--max-cost", "1", "--max-cost-per-shard", "1")
    assert r.returncode == 2 and "not both" in r.stderr, r.stderr
