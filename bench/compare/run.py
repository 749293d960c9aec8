"""mcptest against promptfoo through their command lines, side by side, in one run.

    .venv/bin/python bench/compare/run.py [--only W1,W2] [--reps 3] [--litellm-route]

Installs promptfoo (pinned, `PROMPTFOO_VERSION`) with npm into a cache folder
(`$MCPTEST_BENCH_CACHE`, default `~/.cache/mcptest-bench`) the first time, and mcptest the way
pip installs it for a user: a venv there with the runtime dependencies only (pinned by
constraints.txt; editable, so it runs this checkout). The development venv also holds the test
and lint tools, and httpx imports some of them (rich, pygments) for its own command line: ~30 ms
of CPU on every start that no user pays (`--dev-venv` measures it anyway). Starts one loopback
judge with a fixed latency (`judge.py`), and runs each workload (`workloads.py`) through both
CLIs, alternating which goes first, `--reps` times. Each run is a whole process: wall time, CPU
(user + system, its children included: the example server in W3) and peak RSS come from
`wait4`. The judge's request counter is read around every run, so a run that did not really
call the judge (a cache, a deferral) shows up, and so is its peak of requests in flight: the
calls a CLI really overlaps. When promptfoo's peak exceeds mcptest's (its `-j` counts test
cases, each of which may send several calls at once), mcptest runs once more per repetition
with `--concurrency` set to promptfoo's peak (the row `mcptest -jN`), next to the
`--concurrency 20` row. W2 also runs as `mcptest early_stop`: the same panel with
`early_stop: true`, which asks the third member only when the first two disagree (the same
verdicts; promptfoo has no counterpart, so it is a row of its own with its own ratio, fewer
calls against promptfoo's 300, never the W2 figure). Each judged workload also runs `floor.py`
(`python -I -S`), a bare threaded socket client sending the same calls at the same concurrency
(the row `floor`): about the least wall a Python process takes against this judge, so what
mcptest takes beyond it is its own. Its ratio to promptfoo, and the ideal's, are printed when
every floor run got every answer and promptfoo kept to `--concurrency` calls in flight.
Prints medians and ratios (mcptest / promptfoo); `--json PATH` keeps them. Targets and
results: docs/judges.md, "Speed".
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from phases import phases, print_phases
from workloads import ROOT, WORKLOADS, Workload, mcptest_suite, promptfoo_config

PROMPTFOO_VERSION = "0.121.20"
"""The newest promptfoo that still runs on Node 20 (0.123 needs Node >= 22.22)."""
CACHE = Path(os.environ.get("MCPTEST_BENCH_CACHE", Path.home() / ".cache" / "mcptest-bench"))
HERE = Path(__file__).resolve().parent


def mcptest_bin() -> Path:
    """mcptest's CLI in a runtime-only venv of this checkout (editable: one venv per checkout),
    (re)installed when the pins or pyproject change."""
    folder = CACHE / f"mcptest-runtime-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:10]}"
    stamp = folder / "installed-from"
    want = hashlib.sha256(b"".join((ROOT / f).read_bytes()
                                   for f in ("pyproject.toml", "constraints.txt"))).hexdigest()
    if not stamp.exists() or stamp.read_text(encoding="utf-8") != want:
        print(f"installing mcptest's runtime dependencies into {folder} …", flush=True)
        subprocess.run([sys.executable, "-m", "venv", "--clear", str(folder)], check=True)
        subprocess.run([str(folder / "bin" / "python"), "-m", "pip", "install", "-q",
                        "--disable-pip-version-check", "-c", str(ROOT / "constraints.txt"),
                        "-e", str(ROOT)], check=True, stdout=subprocess.DEVNULL)
        stamp.write_text(want, encoding="utf-8")
    return folder / "bin" / "mcptest"


def promptfoo_bin() -> Path:
    """promptfoo's CLI, installed from npm into the cache folder on first use."""
    folder = CACHE / f"promptfoo-{PROMPTFOO_VERSION}"
    exe = folder / "node_modules" / ".bin" / "promptfoo"
    if not exe.exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        print(f"installing promptfoo {PROMPTFOO_VERSION} into {folder} …", flush=True)
        subprocess.run(["npm", "install", "--no-audit", "--no-fund",
                        f"promptfoo@{PROMPTFOO_VERSION}"], cwd=folder, check=True,
                       stdout=subprocess.DEVNULL)
    return exe


class Judge:
    """The loopback judge in its own process (its CPU is not counted for either CLI)."""

    def __init__(self, latency: float) -> None:
        self.proc = subprocess.Popen([sys.executable, str(HERE / "judge.py"), "--latency",
                                      str(latency)], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        self.base_url = f"http://127.0.0.1:{int(line.split()[1])}/v1"

    def stats(self) -> tuple[int, int]:
        """Requests served so far, and the peak in flight since the previous call."""
        with urllib.request.urlopen(self.base_url + "/stats", timeout=10) as r:
            data = json.load(r)
        return int(data["requests"]), int(data["peak_in_flight"])

    def log(self) -> list[list[float]]:
        """Each request since the previous call: [arrived, connection, answered]."""
        with urllib.request.urlopen(self.base_url + "/log", timeout=10) as r:
            return list(json.load(r))

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def measure(cmd: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """Wall, CPU and peak RSS of one whole process (and the children it waited for)."""
    start = time.monotonic()  # the judge's clock too (phases.py)
    proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    ended = time.monotonic()
    wall = ended - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    err = proc.stderr.read().decode(errors="replace") if proc.stderr else ""
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mib": usage.ru_maxrss / 1024, "rc": proc.returncode, "stderr": err[-2000:],
            "started": start, "ended": ended}


def mcptest_cmd(exe: Path, w: Workload, suite: Path, out: Path, concurrency: int) -> list[str]:
    verb = "run" if w.jurors == 0 else "eval"
    return [str(exe), verb, "--config", str(suite),
            "--concurrency", str(concurrency), "--no-cache", "--reporter", "json",
            "--output", str(out)]


def promptfoo_cmd(exe: Path, cfg: Path, out: Path, concurrency: int) -> list[str]:
    return [str(exe), "eval", "-c", str(cfg), "--no-cache", "-j", str(concurrency),
            "--no-table", "--no-progress-bar", "-o", str(out)]


def base_env(work: Path) -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env.update(PROMPTFOO_DISABLE_TELEMETRY="1", PROMPTFOO_DISABLE_UPDATE="1",
               PROMPTFOO_DISABLE_SHARING="1", PROMPTFOO_CONFIG_DIR=str(work / "promptfoo"),
               PROMPTFOO_DISABLE_WAL_MODE="1")
    return env


def passed(out: Path) -> int:
    """Tests that passed, from the run's JSON output (so a run that failed shows up)."""
    try:
        data = json.loads(out.read_text(encoding="utf-8"))
        out.unlink()
    except (OSError, ValueError):
        return -1
    if "results" in data:  # promptfoo
        return int(data["results"]["stats"]["successes"])
    return int(data["summary"]["counts"]["passed"])


def one(name: str, tool: str, run: tuple[list[str], dict[str, str]], judge: Judge,
        work: Path, results: dict[str, dict[str, list[dict[str, Any]]]], lanes: int) -> None:
    """Run one CLI once; record its measures, judge calls, peak in flight, phases and passes."""
    cmd, env = run
    before, _ = judge.stats()
    judge.log()  # forget what came before this run
    m = measure(cmd, env, work)
    after, m["peak"] = judge.stats()
    m["calls"] = after - before
    m["phases"] = phases(judge.log(), m.pop("started"), m.pop("ended"), lanes)
    # the floors run no tests (their exit code says whether every call was answered)
    m["passed"] = None if tool in ("floor", "stack floor") else passed(
        work / ("p.json" if tool == "promptfoo" else "m.json"))
    results.setdefault(name, {}).setdefault(tool, []).append(m)
    ok = "" if m["rc"] in (0, 100) else f" rc={m['rc']} {m['stderr'][-300:]}"
    got = "n/a" if m["passed"] is None else f"{m['passed']}/{WORKLOADS[name].answers}"
    print(f"{name} {tool:16} wall {m['wall']:6.2f}s  cpu {m['cpu']:6.2f}s  "
          f"rss {m['rss_mib']:5.0f} MiB  calls {m['calls']}  in flight {m['peak']}  "
          f"passed {got}{ok}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="W0,W1,W2,W3")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.2)
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--litellm-route", action="store_true",
                    help="also run mcptest with MCPTEST_LLM_ROUTE=litellm")
    ap.add_argument("--no-promptfoo", action="store_true")
    ap.add_argument("--dev-venv", action="store_true",
                    help="run mcptest from the development venv (.venv) instead")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    exe = None if args.no_promptfoo else promptfoo_bin()
    mcptest = ROOT / ".venv" / "bin" / "mcptest" if args.dev_venv else mcptest_bin()
    judge = Judge(args.latency)
    results: dict[str, dict[str, list[dict[str, Any]]]] = {}
    try:
        with tempfile.TemporaryDirectory(prefix="mcptest-compare-") as tmp:
            work = Path(tmp)
            env = base_env(work)
            mcp_env = dict(env, MCPTEST_JUDGE_BASE_URL=judge.base_url,
                           MCPTEST_JUDGE_API_KEY="bench")
            for name in args.only.split(","):
                w = WORKLOADS[name]
                tools: dict[str, tuple[list[str], dict[str, str]]] = {
                    "mcptest": (mcptest_cmd(mcptest, w, mcptest_suite(w, work), work / "m.json",
                                            args.concurrency), mcp_env)}
                if w.jurors > 1:  # the same panel, asked in waves (opt-in; same verdicts)
                    tools["mcptest early_stop"] = (mcptest_cmd(
                        mcptest, w, mcptest_suite(w, work, early_stop=True), work / "m.json",
                        args.concurrency), mcp_env)
                if w.jurors:  # the bare client: the least wall of a Python CLI here
                    tools["floor"] = ([str(mcptest.parent / "python"), "-I", "-S",
                                       str(HERE / "floor.py"),
                                       judge.base_url, str(w.calls), str(args.concurrency)], env)
                    # the same calls with mcptest's libraries only (yaml, pydantic, anyio, h11)
                    tools["stack floor"] = ([str(mcptest.parent / "python"),
                                             str(HERE / "stack_floor.py"), judge.base_url,
                                             str(w.calls), str(args.concurrency),
                                             str(mcptest_suite(w, work))], env)
                if args.litellm_route:
                    tools["mcptest-litellm"] = (tools["mcptest"][0],
                                                dict(mcp_env, MCPTEST_LLM_ROUTE="litellm"))
                if exe is not None:
                    tools["promptfoo"] = (promptfoo_cmd(exe, promptfoo_config(
                        w, work, judge.base_url), work / "p.json", args.concurrency), env)
                order = list(tools)
                lanes = min(w.calls, args.concurrency)
                for rep in range(args.reps):
                    for tool in (order if rep % 2 == 0 else order[::-1]):
                        one(name, tool, tools[tool], judge, work, results, lanes)
                runs = results.get(name, {})
                top = {t: max(r["peak"] for r in runs[t]) for t in ("mcptest", "promptfoo")
                       if t in runs}
                if w.jurors and top.get("promptfoo", 0) > top.get("mcptest", 0):
                    cmd = mcptest_cmd(mcptest, w, mcptest_suite(w, work), work / "m.json",
                                      top["promptfoo"])
                    for _ in range(args.reps):  # the same calls in flight as promptfoo
                        one(name, f"mcptest -j{top['promptfoo']}", (cmd, mcp_env), judge, work,
                            results, min(w.calls, top["promptfoo"]))
    finally:
        judge.close()
    summary = report(results, args.latency, args.concurrency)
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "summary": summary}, indent=1))
    return 0


def ideal_s(w: Workload, concurrency: int, latency: float) -> float:
    """The least wall of `w`'s judge calls: waves of `concurrency`, each one latency long."""
    return -(-w.calls // concurrency) * latency


def report(results: dict[str, dict[str, list[dict[str, Any]]]], latency: float,
           concurrency: int) -> dict[str, Any]:
    """Medians per workload and tool, and mcptest's ratios to promptfoo."""
    summary: dict[str, Any] = {}
    print("\n| workload | tool | wall (median) | CPU | peak RSS | judge calls | peak in flight "
          "| vs promptfoo |")
    print("|---|---|---|---|---|---|---|---|")
    for name, by_tool in results.items():
        w = WORKLOADS[name]
        med = {tool: {k: statistics.median(r[k] for r in runs)
                      for k in ("wall", "cpu", "rss_mib", "calls", "peak")}
               for tool, runs in by_tool.items()}
        summary[name] = med
        pf = med.get("promptfoo")
        ideal = ideal_s(w, concurrency, latency) if w.jurors else None
        for tool, m in med.items():
            ratio = (f"wall {m['wall'] / pf['wall']:.2f}x, CPU {m['cpu'] / pf['cpu']:.2f}x, "
                     f"RSS {m['rss_mib'] / pf['rss_mib']:.2f}x"
                     if pf is not None and tool != "promptfoo" else "")
            print(f"| {name} {w.what} | {tool} | {m['wall']:.2f} s | {m['cpu']:.2f} s | "
                  f"{m['rss_mib']:.0f} MiB | {m['calls']:.0f} | {m['peak']:.0f} | {ratio} |")
        if ideal:
            print(f"|  | (ideal) | {ideal:.2f} s | | | {w.calls} | {min(w.calls, concurrency)} | |")
    for tool in ("mcptest", "mcptest-litellm"):
        if all(n in summary and tool in summary[n] for n in ("W0", "W1")):
            per = ((summary["W1"][tool]["cpu"] - summary["W0"][tool]["cpu"])
                   / (WORKLOADS["W1"].calls - WORKLOADS["W0"].calls) * 1000)
            summary[f"{tool}_cpu_ms_per_call"] = per
            print(f"\n{tool}: CPU per judge call (W1 − W0, over 199 calls): {per:.2f} ms")
    for name, by_tool in results.items():
        w, med = WORKLOADS[name], summary[name]
        floor, pf = by_tool.get("floor", []), by_tool.get("promptfoo", [])
        if not floor or not pf or any(r["rc"] != 0 or r["calls"] != w.calls for r in floor) \
                or max(r["peak"] for r in pf) > concurrency:
            continue  # a floor that lost calls, or a promptfoo that overlapped more, says nothing
        at = med["floor"]["wall"] / med["promptfoo"]["wall"]
        ideal = ideal_s(w, concurrency, latency) / med["promptfoo"]["wall"]
        summary[f"{name}_floor_ratio"], summary[f"{name}_ideal_ratio"] = at, ideal
        print(f"{name}: the bare Python client's wall is {at:.2f}x promptfoo's; the ideal's "
              f"is {ideal:.2f}x")
    summary["phases"] = print_phases(results)
    floor_check(summary)
    return summary


FLOOR_TARGET_S = 0.2
"""Issue 38: mcptest's wall within this of the bare client's on W0, W1 and W2."""


def floor_check(summary: dict[str, Any]) -> None:
    """mcptest beside the floor on each judged workload: the wall gap against the 0.2 s target,
    and the CPU gap, which a busy machine does not inflate (the wall gap it does: the load
    average is printed with it)."""
    load = os.getloadavg()[0]
    print(f"\nstart-up against the floor (target: wall within {FLOOR_TARGET_S:.1f} s; "
          f"load average {load:.1f} on {os.cpu_count()} cores):")
    for name in ("W0", "W1", "W2"):
        med = summary.get(name, {})
        if "mcptest" not in med or "floor" not in med:
            continue
        wall = med["mcptest"]["wall"] - med["floor"]["wall"]
        cpu = med["mcptest"]["cpu"] - med["floor"]["cpu"]
        ok = "within" if wall <= FLOOR_TARGET_S else "OVER"
        summary[f"{name}_over_floor_s"] = {"wall": wall, "cpu": cpu}
        line = f"  {name} {WORKLOADS[name].what}: wall +{wall:.2f} s ({ok}), CPU +{cpu:.2f} s"
        if "stack floor" in med:  # how much of the gap is the libraries', how much mcptest's
            libs = med["stack floor"]["wall"] - med["floor"]["wall"]
            line += (f"; of the wall, the libraries' floor {libs:+.2f} s, "
                     f"mcptest's own {wall - libs:+.2f} s")
        print(line)


if __name__ == "__main__":
    sys.exit(main())
