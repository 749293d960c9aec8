"""How a run grows: N tool tests over 10 stdio servers, N judged answers, all nine reports.

Every figure is of the CLI as a whole process (`mcptest run …` / `mcptest eval …`), measured
with `wait4`: wall time, CPU (user + system, the example servers included) and peak RSS of the
mcptest process (the largest of it and its children, as `ru_maxrss` reports it).

- tools: N `add` tests split over 10 suite files (one example stdio server each, so 10 servers;
  a suite file is bounded to 1 MiB, docs/suites.md#limits), for N = 1,000 … 10,000, every run
  writing all nine reporters to files. The slope (seconds and CPU-seconds per 1,000 tests) is a
  least-squares fit; linearity is its R² and the largest residual.
- judged: N fixed-response evals (`mcptest eval`), one judge call each, against the loopback
  judge of bench/compare/judge.py with a fixed latency; slope likewise.
- render: CPU of rendering each of the nine formats from the 10,000-test JSON report, timed
  in-process around each reporter's `render` (the redaction the CLI does first is timed too).

    .venv/bin/python bench/bench_scale.py [--tools 1000,2500,5000,10000] [--judged 500,1000,2000]
        [--latency 0.05] [--concurrency 20] [--quick] [--json PATH]

`--quick` (used by `make bench`): 250, 500 and 1,000 tool tests, 100, 200 and 400 judged
answers.
Figures and the machine they were taken on: docs/reports.md, "Scale".
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
MCPTEST = REPO / ".venv" / "bin" / "mcptest"
SERVER = REPO / "examples" / "server" / "example_server.py"
JUDGE = REPO / "bench" / "compare" / "judge.py"
FORMATS = ("pretty", "json", "junit", "md", "html", "sarif", "gitlab", "ndjson", "tap")
SERVERS = 10
SUFFIX = {"pretty": "txt", "md": "md", "html": "html", "junit": "xml", "tap": "tap"}


def tool_suites(folder: Path, n: int, servers: int = SERVERS) -> list[Path]:
    """`n` deterministic `add` tests, spread evenly over `servers` suite files."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for s in range(servers):
        lines = ["servers:", "  ex:",
                 f"    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]",
                 "tools:"]
        for i in range(s, n, servers):
            lines += [f"  - name: add {i}", "    server: ex", "    tool: add",
                      f"    args: {{a: {i}, b: 1}}", "    expect:",
                      "      - target: result.structuredContent.result",
                      f"        matcher: {{exact: {i + 1}}}"]
        path = folder / f"tools-{s}.yml"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def judged_suite(folder: Path, n: int) -> list[Path]:
    """`n` fixed-response evals, one judge call each (the judge from MCPTEST_JUDGE_BASE_URL)."""
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["evals:"]
    for i in range(n):
        lines += [f"  - name: answer {i}", "    prompt: What was deployed?",
                  f'    response: "Deployed billing-api v2.{i}.0 to production."',
                  "    rubric: The answer is a deployment note that names the release.",
                  "    threshold: 0.5", "    judge: {model: judge-a}"]
    path = folder / "judged.yml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return [path]


def reporter_args(out: Path) -> list[str]:
    args = []
    for fmt in FORMATS:
        args += ["--reporter", fmt, "--output", str(out / f"report.{fmt}.{SUFFIX.get(fmt, 'json')}")]
    return args


def measure(cmd: list[str], env: dict[str, str], cwd: Path) -> dict[str, Any]:
    """Wall, CPU (children included) and peak RSS of one whole process, from `wait4`."""
    with tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read()[-1500:].decode(errors="replace")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mib": usage.ru_maxrss / 1024, "rc": proc.returncode, "stderr": tail}


class Judge:
    """bench/compare/judge.py in its own process (its CPU is not counted)."""

    def __init__(self, latency: float) -> None:
        self.proc = subprocess.Popen([sys.executable, str(JUDGE), "--latency", str(latency)],
                                     stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.base_url = f"http://127.0.0.1:{int(self.proc.stdout.readline().split()[1])}/v1"

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def fit(points: list[tuple[int, float]]) -> dict[str, float]:
    """Least squares y = a + b·n: b per 1,000, R², and the largest residual as a share of y."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    a = my - b * mx
    ss_res = sum((y - a - b * x) ** 2 for x, y in points)
    ss_tot = sum((y - my) ** 2 for _, y in points)
    worst = max(abs(y - a - b * x) / y for x, y in points if y)
    return {"per_1000": b * 1000, "intercept": a,
            "r2": 1 - ss_res / ss_tot if ss_tot else 1.0, "worst_residual": worst}


def passed(out: Path) -> int:
    data = json.loads((out / "report.json.json").read_text(encoding="utf-8"))
    return int(data["summary"]["counts"]["passed"])


def run_sizes(kind: str, sizes: list[int], work: Path, env: dict[str, str],
              extra: list[str]) -> list[dict[str, Any]]:
    rows = []
    for n in sizes:
        folder = work / f"{kind}-{n}"
        files = tool_suites(folder, n) if kind == "tools" else judged_suite(folder, n)
        out = folder / "out"
        out.mkdir()
        verb = "run" if kind == "tools" else "eval"
        cmd = [str(MCPTEST), verb, "-q", *map(str, files), *extra, *reporter_args(out)]
        load = os.getloadavg()[0]
        m = measure(cmd, env, folder)
        m.update(n=n, load=load, passed=passed(out) if m["rc"] == 0 else -1)
        rows.append(m)
        bad = "" if m["rc"] == 0 and m["passed"] == n else f"  rc={m['rc']} {m['stderr']}"
        print(f"{kind:6} {n:>6,}: wall {m['wall']:6.2f} s  cpu {m['cpu']:6.2f} s  "
              f"rss {m['rss_mib']:5.0f} MiB  passed {m['passed']:,}  load {load:.1f}{bad}",
              flush=True)
    return rows


def render_cpu(report_json: Path) -> dict[str, float]:
    """CPU seconds of each reporter's `render` on a saved report (and of redaction)."""
    from mcptest.report.io import read_report
    from mcptest.report.redact import redact_report
    from mcptest.reporters import get_reporter

    report = read_report(report_json)
    out: dict[str, float] = {}
    start = time.process_time()
    clean = redact_report(report, ())
    out["(redact)"] = time.process_time() - start
    for fmt in FORMATS:
        render = get_reporter(fmt)
        start = time.process_time()
        render(clean)
        out[fmt] = time.process_time() - start
    return out


def render_cpu_apart(report_json: Path) -> dict[str, float]:
    """`render_cpu` in a child process: loading a 10,000-test report makes this process big,
    and a process started from a big one inherits its size into `ru_maxrss`."""
    done = subprocess.run([sys.executable, __file__, "--render-cpu", str(report_json)],
                          check=True, capture_output=True, text=True)
    return dict(json.loads(done.stdout))


def summarize(kind: str, rows: list[dict[str, Any]]) -> dict[str, Any]:
    if len(rows) < 2:
        return {}
    s = {k: fit([(r["n"], r[k]) for r in rows]) for k in ("wall", "cpu", "rss_mib")}

    def line(k: str, unit: str) -> str:
        f = s[k]
        shape = (f" (R² {f['r2']:.4f}, worst residual {f['worst_residual']:.1%})"
                 if len(rows) > 2 else "")
        return f"{f['per_1000']:.2f} {unit} / 1,000 + {f['intercept']:.1f}{shape}"

    print(f"{kind}: wall {line('wall', 's')} · CPU {line('cpu', 's')} · "
          f"peak RSS {line('rss_mib', 'MiB')}")
    return s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", default="1000,2500,5000,10000")
    ap.add_argument("--judged", default="500,1000,2000")
    ap.add_argument("--latency", type=float, default=0.05)
    ap.add_argument("--concurrency", type=int, default=20)
    ap.add_argument("--quick", action="store_true", help="small sizes (make bench)")
    ap.add_argument("--json", type=Path)
    ap.add_argument("--render-cpu", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.render_cpu:
        print(json.dumps(render_cpu(args.render_cpu)))
        return 0
    if args.quick:
        args.tools, args.judged = "250,500,1000", "100,200,400"
    tools = [int(x) for x in args.tools.split(",") if x]
    judged = [int(x) for x in args.judged.split(",") if x]
    env = {k: os.environ[k] for k in ("PATH", "HOME", "LANG", "TMPDIR") if k in os.environ}
    result: dict[str, Any] = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                              "cpus": os.cpu_count()}
    with tempfile.TemporaryDirectory(prefix="mcptest-scale-") as tmp:
        work = Path(tmp)
        if tools:
            rows = run_sizes("tools", tools, work, env, ["--no-cache"])
            result["tools"] = {"runs": rows, "fit": summarize("tools", rows)}
            biggest = work / f"tools-{max(tools)}" / "out" / "report.json.json"
            if biggest.exists():
                cpu = render_cpu_apart(biggest)
                result["render"] = {"tests": max(tools), "cpu": cpu}
                print(f"render {max(tools):,} tests, CPU s: " + "  ".join(
                    f"{k} {v:.2f}" for k, v in cpu.items())
                    + f"  · all nine {sum(v for k, v in cpu.items() if k in FORMATS):.2f}")
        if judged:
            judge = Judge(args.latency)
            try:
                jenv = dict(env, MCPTEST_JUDGE_BASE_URL=judge.base_url,
                            MCPTEST_JUDGE_API_KEY="bench")
                rows = run_sizes("judged", judged, work, jenv,
                                 ["--no-cache", "--concurrency", str(args.concurrency)])
            finally:
                judge.close()
            result["judged"] = {"runs": rows, "fit": summarize("judged", rows),
                                "latency": args.latency, "concurrency": args.concurrency}
    if args.json:
        args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
