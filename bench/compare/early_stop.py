"""Judge calls saved by `early_stop: true` on a mixed jury workload, through the CLI.

    .venv/bin/python bench/compare/early_stop.py

100 tool tests on the example server, each graded by an `llm-jury` (even ones: 3 jurors,
quorum 0.5; odd ones: 5 jurors, quorum 0.6): 60 clear passes, 25 clear failures and 15
contested answers on which two jurors dissent (`judge.py`). The suite runs twice, without and
with `early_stop`, against the same loopback judge; prints the judge calls of each, the share
saved, and whether every verdict is the same. Figures: docs/judges.md, "Speed".
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import Judge, base_env, measure
from workloads import ROOT, SERVER

KINDS = ["ok"] * 60 + ["FAIL"] * 25 + ["SPLIT"] * 15


def suite(early: bool, folder: Path) -> Path:
    tests = []
    for i, kind in enumerate(KINDS):
        size, quorum = (3, 0.5) if i % 2 == 0 else (5, 0.6)
        jury = {"rubric": "The greeting is friendly.", "threshold": 0.5, "quorum": quorum,
                "jurors": [{"model": f"judge-{c}"} for c in "abcde"[:size]],
                "early_stop": early}
        tests.append({"name": f"greet {i}", "server": "example", "tool": "greet",
                      "args": {"name": f"{kind}-{i}"},
                      "expect": [{"target": "result.content[0].text",
                                  "matcher": {"llm-jury": jury}}]})
    doc = {"servers": {"example": {"command": [sys.executable, str(SERVER)]}}, "tools": tests}
    path = folder / f"early-{early}.yml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def main() -> int:
    judge = Judge(0.2)
    out: dict[bool, dict[str, object]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="mcptest-early-") as tmp:
            work = Path(tmp)
            env = dict(base_env(work), MCPTEST_JUDGE_BASE_URL=judge.base_url,
                       MCPTEST_JUDGE_API_KEY="bench")
            for early in (False, True):
                report = work / f"r-{early}.json"
                cmd = [str(ROOT / ".venv" / "bin" / "mcptest"), "run", str(suite(early, work)),
                       "--concurrency", "20", "--no-cache", "--reporter", "json",
                       "--output", str(report)]
                before = judge.stats()[0]
                m = measure(cmd, env, work)
                data = json.loads(report.read_text(encoding="utf-8"))
                out[early] = {"calls": judge.stats()[0] - before, "wall": m["wall"],
                              "statuses": [t["status"] for t in data["tests"]]}
    finally:
        judge.close()
    full, early = out[False], out[True]
    saved = 1 - early["calls"] / full["calls"]  # type: ignore[operator]
    same = full["statuses"] == early["statuses"]
    print(f"full jury: {full['calls']} calls, {full['wall']:.2f} s; early_stop: "
          f"{early['calls']} calls, {early['wall']:.2f} s; saved {saved:.0%}; "
          f"verdicts identical: {same}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
