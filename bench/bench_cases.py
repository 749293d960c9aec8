"""A 10,000-case table on one tool vs separate tests: what one row costs
(docs/suites.md#tables-of-cases).

Both sides make the same `greet` calls against the example stdio server through `run_plan`, with
the same assertion. A table of N cases is one test with `cases: {file: cases.csv}`; separate tests
are N entries of a suite. Each side is timed at N and N/5 rows: the slope between the two is the
marginal cost of one row (load, plan, call, grade, report) with spawn and connect cancelled out.
Separate tests stop at 1,000 per file (a suite file is bounded, docs/suites.md#limits: 10,000
tests do not fit in one), so their slope is taken at 1,000 and 200; the table's at 10,000 and 2,000.

`--cli` adds the whole-process comparison at full size: `mcptest run` on one 10,000-case table
against `mcptest run` on 10,000 separate tests written as 10 suite files (10 servers), each at N
and N/5, wall, CPU (the servers included) and peak RSS from `wait4` (bench_scale.measure). The
slope between N and N/5 is the per-row cost with spawns cancelled out; CPU is the fair figure
(the table's one server works serially, the ten files' servers four at a time).

    .venv/bin/python bench/bench_cases.py [--cases 10000] [--separate 1000] [--rounds 2] [--cli]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
SERVER = REPO / "examples" / "server" / "example_server.py"
HEAD = [
    "servers:",
    "  ex:",
    f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]",
    "tools:",
]
EXPECT = [
    "    expect:",
    "      - target: result.content[0].text",
]


def table_suite(folder: Path, n: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = ["name,who"] + [f"c{i},user{i}" for i in range(n)]
    (folder / "cases.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    lines = [*HEAD, "  - name: greet", "    server: ex", "    tool: greet",
             '    args: {name: "${who}"}', "    cases: {file: cases.csv}", *EXPECT,
             '        matcher: {exact: "Hello, ${who}!"}']
    path = folder / "table.yml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def separate_suite(folder: Path, n: int, which: range | None = None) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    lines = list(HEAD)
    for i in which if which is not None else range(n):
        lines += [f"  - name: greet c{i}", "    server: ex", "    tool: greet",
                  f"    args: {{name: user{i}}}", *EXPECT,
                  f'        matcher: {{exact: "Hello, user{i}!"}}']
    path = folder / "separate.yml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def separate_files(folder: Path, n: int, files: int = 10) -> list[Path]:
    """`n` separate `greet` tests over `files` suite files (one server each)."""
    return [separate_suite(folder / f"f{k}", n, range(k, n, files)) for k in range(files)]


def cli_side_by_side(n: int, rounds: int, folder: Path) -> dict[str, dict[str, float]]:
    """Both sides through `mcptest run` as a whole process, at `n` and `n // 5` rows."""
    from bench_scale import MCPTEST, measure

    sides: dict[str, Callable[[Path, int], list[Path]]] = {
        "case table": lambda f, k: [table_suite(f, k)], "separate tests": separate_files}
    runs: dict[tuple[str, int], list[dict[str, float]]] = {}
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    for r in range(rounds):
        for label, make in sides.items():
            for k in (n // 5, n):
                work = folder / f"cli-{label[:4]}-{k}-{r}"
                files = make(work, k)
                out = work / "run.json"
                m = measure([str(MCPTEST), "run", "-q", *map(str, files), "--reporter", "json",
                             "--output", str(out)], env, work)
                m["load"] = os.getloadavg()[0]
                got = json.loads(out.read_text(encoding="utf-8"))["summary"]["counts"]["passed"]
                assert m["rc"] == 0 and got == k, (label, k, m["rc"], got, m["stderr"])
                runs.setdefault((label, k), []).append(m)
    out: dict[str, dict[str, float]] = {}
    for label in sides:
        big, small = ({f: statistics.median(x[f] for x in runs[(label, k)])
                       for f in ("wall", "cpu", "rss_mib", "load")} for k in (n, n // 5))
        rows = n - n // 5
        out[label] = {"rows": n, "wall_s": big["wall"], "cpu_s": big["cpu"],
                      "rss_mib": big["rss_mib"], "load": big["load"],
                      "wall_per_row_ms": (big["wall"] - small["wall"]) / rows * 1000,
                      "cpu_per_row_ms": (big["cpu"] - small["cpu"]) / rows * 1000}
    return out


def timed_run(suite: Path) -> tuple[float, float, int]:
    """(load + plan seconds, whole run seconds, rows passed)."""
    from mcptest.llm.contracts import JudgeOptions
    from mcptest.pipeline import RunOptions, run_plan
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    start = time.perf_counter()
    plan = build_plan(load_suites([suite], env=dict(os.environ)))
    loaded = time.perf_counter() - start
    report = run_plan(plan, RunOptions(judge=JudgeOptions(env=dict(os.environ)),
                                       handle_signals=False)).report
    return loaded, time.perf_counter() - start, report.summary.counts.passed


Config = tuple[str, Callable[[Path, int], Path], int, int]


def slopes(configs: list[Config], rounds: int, folder: Path) -> dict[str, dict[str, float]]:
    """Per config, medians over `rounds`; the configs' runs are interleaved so that a busy
    machine slows every side alike."""
    totals: dict[tuple[str, int], list[float]] = {}
    loads: dict[tuple[str, int], list[float]] = {}
    for r in range(rounds):
        for label, make, big, small in configs:
            for n in (small, big):
                load, total, passed = timed_run(make(folder / f"{label}-{n}-{r}", n))
                assert passed == n, (passed, n)
                totals.setdefault((label, n), []).append(total)
                loads.setdefault((label, n), []).append(load)
    out = {}
    for label, _, big, small in configs:
        t_big, t_small = (statistics.median(totals[(label, n)]) for n in (big, small))
        l_big, l_small = (statistics.median(loads[(label, n)]) for n in (big, small))
        out[label] = {"rows": big, "total_s": t_big,
                      "per_row_ms": (t_big - t_small) / (big - small) * 1000,
                      "load_per_row_ms": (l_big - l_small) / (big - small) * 1000}
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cases", type=int, default=10_000)
    ap.add_argument("--separate", type=int, default=1_000)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--cli", action="store_true",
                    help="also compare through the CLI: a --cases table vs as many separate tests")
    ap.add_argument("--no-in-process", action="store_true", help="only the --cli comparison")
    args = ap.parse_args()
    n, m = args.cases, args.separate
    configs: list[Config] = [("case table", table_suite, n, n // 5),
                             ("case table (small)", table_suite, m, m // 5),
                             ("separate tests", separate_suite, m, m // 5)]
    with tempfile.TemporaryDirectory() as tmp:
        if args.cli:
            for label, c in cli_side_by_side(n, args.rounds, Path(tmp)).items():
                print(f"CLI {label:>14}: {c['rows']:>6,} rows, wall {c['wall_s']:6.2f} s, CPU "
                      f"{c['cpu_s']:6.2f} s, peak RSS {c['rss_mib']:4.0f} MiB · per row: wall "
                      f"{c['wall_per_row_ms']:.3f} ms, CPU {c['cpu_per_row_ms']:.3f} ms "
                      f"(load {c['load']:.1f})", flush=True)
        if args.no_in_process:
            return
        found = slopes(configs, args.rounds, Path(tmp))
    for label, r in found.items():
        print(f"{label:>18}: {r['rows']:>6,} rows in {r['total_s']:6.2f} s · "
              f"{r['per_row_ms']:.3f} ms per row (of which load+plan {r['load_per_row_ms']:.3f})")
    for label in ("case table", "case table (small)"):
        ratio = found[label]["per_row_ms"] / found["separate tests"]["per_row_ms"]
        print(f"per-row cost, {label} / separate tests: {ratio:.2f}")


if __name__ == "__main__":
    main()
