"""Live vs replay: an agent suite through the CLI, its model side live, then from cassettes.

Run: `.venv/bin/python bench/bench_replay.py [--tests 50] [--latency 0.3]`. Each of the N agent
tests asks the example server's `add` for a different sum: two model turns (a tool call, the
answer) and one judge verdict, from a loopback provider that answers each request after
`--latency` seconds with fixed token counts, priced as `gpt-4o-mini` and the judge at its own
price. The CLI runs as a whole process three times: live (no `--models`), `--models record`
(live, and writes the cassettes) and `--models replay` with no key and the provider unused. The
table gives wall time, model requests the provider saw and dollars, side by side
(docs/cassettes.md). Agent rows run one after another (servers are stateful), so a live suite
waits for every turn and a replay waits for none.
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict  # noqa: E402

SERVER = ROOT / "examples" / "server" / "example_server.py"
AGENT, JUDGE = "gpt-4o-mini", "judge-m"


def suite(n: int) -> str:
    head = f"""servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
judge:
  pricing: {{{JUDGE}: {{input: 0.8, output: 4.0}}}}
agents:
"""
    tests = [f"""  - name: adds {i} and {i + 1}
    models: [{AGENT}]
    servers: [ex]
    prompt: "What is {i} plus {i + 1}? Use the tools."
    expect:
      - {{target: tool_calls, matcher: {{tools-called: {{exact: [add]}}}}}}
      - {{target: final, matcher: {{contains: "{2 * i + 1}"}}}}
      - target: final
        matcher: {{llm-judge: {{rubric: "States the sum.", model: {JUDGE}}}}}
""" for i in range(n)]
    return head + "".join(tests)


def script(js: JudgeServer, n: int, latency: float) -> None:
    for i in range(n):
        js.script(AGENT, [
            ToolCalls(("add", {"a": i, "b": i + 1}), latency=latency, prompt_tokens=1200,
                      completion_tokens=30),
            Fault("text", latency=latency, content=f"{i} + {i + 1} = {2 * i + 1}.",
                  completion_tokens=20)], candidate=f"What is {i} plus {i + 1}?")
    js.script(JUDGE, Verdict(score=0.9, latency=latency, prompt_tokens=450, completion_tokens=40))


def run(cwd: Path, env: dict[str, str], *args: str) -> tuple[float, dict]:
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "mcptest", "run", "agents.yml", *args,
                           "--quiet", "--reporter", "json", "--output", "r.json"],
                          cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - t0
    if done.returncode != 0:
        sys.exit(f"bench_replay: `mcptest run {' '.join(args)}` exited {done.returncode}:\n"
                 f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return wall, json.loads((cwd / "r.json").read_text())


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tests", type=int, default=50)
    p.add_argument("--latency", type=float, default=0.3, help="seconds per model request")
    args = p.parse_args()
    keyless = {k: v for k, v in os.environ.items()
               if not k.endswith("_API_KEY") and not k.startswith("MCPTEST_JUDGE")}
    rows = []
    with tempfile.TemporaryDirectory() as tmp, JudgeServer() as js:
        cwd = Path(tmp)
        (cwd / "agents.yml").write_text(suite(args.tests), encoding="utf-8")
        env = {**keyless, **js.gateway_env()}
        for mode, extra, environ in (("live", (), env), ("record", ("--models", "record"), env),
                                     ("replay", ("--models", "replay"), keyless)):
            script(js, args.tests, args.latency)
            before = js.count()
            wall, report = run(cwd, environ, *extra)
            s = report["summary"]
            assert s["counts"]["passed"] == args.tests, s["counts"]
            rows.append({"mode": mode, "wall_s": round(wall, 2),
                         "requests": js.count() - before, "cost_usd": s["cost_usd"],
                         "replayed": (s.get("cassettes") or {}).get("replayed", 0)})
    print(f"{args.tests} agent tests (2 turns + 1 judge each), {args.latency:g} s per model "
          "request, the CLI as a whole process:")
    print(f"{'mode':<8} {'wall s':>8} {'requests':>9} {'replayed':>9} {'USD':>10}")
    for r in rows:
        print(f"{r['mode']:<8} {r['wall_s']:>8.2f} {r['requests']:>9} {r['replayed']:>9} "
              f"{r['cost_usd']:>10.6f}")
    live, replay = rows[0], rows[2]
    print(f"replay: {live['wall_s'] / replay['wall_s']:.1f}x faster, "
          f"${live['cost_usd']:.6f} → ${replay['cost_usd']:.6f}, "
          f"{replay['requests']} model request(s) sent")
    print(json.dumps({"bench": "replay", "tests": args.tests, "latency_s": args.latency,
                      "rows": rows}))
    return 0 if replay["requests"] == 0 and replay["cost_usd"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
