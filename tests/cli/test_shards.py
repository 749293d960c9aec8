"""Shards balanced by a previous report's durations, merged back into the unsharded report.

docs/action.md, "Shards": `--shard i/n --shard-weights REPORT.json` splits by longest
processing time first; `mcptest merge` puts the rows back in run order and refuses a set of
shard reports with one missing.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support.cli_run import HEAD

from mcptest.plan import balanced_shards

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_run import mcptest, report  # noqa: E402


def test_longest_first_balances_the_shards() -> None:
    ids = ["a", "b", "c", "d", "e", "f"]
    weights = {"a": 10.0, "b": 7.0, "c": 5.0, "d": 4.0, "e": 3.0, "f": 1.0}
    owner = balanced_shards(ids, weights, 2)
    # 10 → 0, 7 → 1, 5 → 1 (12), 4 → 0 (14), 3 → 1 (15), 1 → 0 (15)
    assert owner == [0, 1, 1, 0, 1, 0]
    # an unknown test counts as the (upper) median of the known durations: z weighs 9 here
    assert balanced_shards(["x", "y", "z"], {"x": 1.0, "y": 9.0}, 2) == [0, 0, 1]
    assert balanced_shards(["x", "y", "z", "v"], {"x": 1.0, "y": 9.0, "v": 1.0}, 2) == [
        1, 0, 1, 1]  # here z weighs 1


@given(durations=st.lists(st.floats(0, 1e4, allow_nan=False), min_size=1, max_size=40),
       n=st.integers(1, 6))
def test_split_is_a_partition_and_within_one_test_of_even(durations: list[float],
                                                          n: int) -> None:
    ids = [f"t{k:03d}" for k in range(len(durations))]
    weights = dict(zip(ids, durations, strict=True))
    owner = balanced_shards(ids, weights, n)
    assert owner == balanced_shards(list(ids), dict(reversed(weights.items())), n)  # stable
    loads = [sum(d for d, o in zip(durations, owner, strict=True) if o == s) for s in range(n)]
    # LPT: no shard exceeds the lightest one by more than the longest test
    assert max(loads) - min(loads) <= max(durations) + 1e-9


def _rows(data: dict[str, Any]) -> list[Any]:
    """The report's rows without what differs between any two runs: durations, and a timeline's
    offsets and request ids (they depend on what ran before on the same connection)."""
    def strip(v: Any) -> Any:
        if isinstance(v, dict):
            timing = ("duration_ms", "latency_ms", "at_ms", "request_id")
            return {k: strip(x) for k, x in v.items() if k not in timing}
        if isinstance(v, list):
            return [strip(x) for x in v]
        return v
    return strip(data["tests"])


@pytest.mark.slow  # five CLI runs on the example server
def test_four_merged_shards_equal_the_unsharded_run_row_for_row(tmp_path: Path) -> None:
    tests = "".join(f"""
  - name: add {i}
    server: ex
    tool: add
    args: {{a: {i}, b: 1}}
    expect:
      - target: result.structuredContent.result
        matcher: {{exact: {i + 1 if i % 5 else 0}}}
""" for i in range(14))
    path = tmp_path / "suite.yml"
    path.write_text(f"""
{HEAD}tools:{tests}""", encoding="utf-8")  # the shared example server: the shards are the point
    whole = tmp_path / "whole.json"
    assert mcptest("run", path, "--reporter", "json", "--output", whole).returncode == 1
    outs = []
    for i in range(1, 5):
        out = tmp_path / f"shard{i}.json"
        done = mcptest("run", path, "--reporter", "json", "--output", out, "--shard", f"{i}/4",
                       "--shard-weights", whole)
        # A shard run always writes its report (a failing one too): say why when it did not.
        assert out.is_file(), f"shard {i}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        shard = report(out)["shard"]
        assert (shard["index"], shard["count"], len(shard["plan"])) == (i, 4, 14)
        outs.append(out)
    assert all(report(o)["tests"] for o in outs)
    merged = tmp_path / "merged.json"
    done = mcptest("merge", *reversed(outs), "--output", merged)
    assert done.returncode == 1  # the failing tests fail the merged run
    m, w = report(merged), report(whole)
    assert _rows(m) == _rows(w)
    assert m["summary"]["counts"] == w["summary"]["counts"] and m["shard"] is None
    assert [s["name"] for s in m["servers"]] == [s["name"] for s in w["servers"]] == ["ex"]

    missing = mcptest("merge", *outs[:3])
    assert missing.returncode == 2
    assert "missing shard(s) 4/4" in missing.stderr
