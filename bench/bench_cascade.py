"""Trust or escalate, priced: the cheap judge alone, the jury alone and the escalation cascade
on the same scripted answers, side by side (docs/cascade.md, "What it buys").

Run: `.venv/bin/python bench/bench_cascade.py [--seeds N]`. Each split draws a fresh pool of 500
labelled answers with a hidden
difficulty (tests/support/cascade_sim.py): a cheap judge right on easy answers and a coin toss on
the hardest, its score near the line when it is unsure; three jurors right 93% of the time on easy
answers and 85% on the hardest. All of it on the loopback judge server, priced like gpt-4o-mini
and three large models. For each seed the answers are split in half: `mcptest calibrate
--target-agreement 0.9 --risk 0.1` on one half, then `mcptest run` grades the other half (a
250-case table through the example server's `greet` tool, which echoes the answer) three times:
with the cheap judge, with the jury, with the cascade. Every number comes from the run's JSON
report: cost per verdict (`summary.cost_usd` / rows) and agreement with the labels.

`--sweep [REPS]` instead calibrates the cheap tier alone, in process, on 40 to 1,000 labels of
judges erring about 8% (tests/support/label_sweep.py), with the fixed sequence's start before
issue 35 and today's, and prints the share of calibrations trusting the judge, what it settles,
and how often the guarantee held (docs/cascade.md, "How a threshold is chosen").
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

TARGET, RISK = 0.9, 0.1
RUBRIC = "Pass if the text is a short deployment note naming the service and the tag."


def _suite(kind: str, cheap: str, jurors: tuple[str, ...], prices: dict) -> str:
    pricing = ", ".join(f"{m}: {{input: {i}, output: {o}}}" for m, (i, o) in prices.items())
    seats = ", ".join(f"{{model: {j}}}" for j in jurors)
    matcher = {
        "cheap": f"llm-judge: {{rubric: '{RUBRIC}', model: {cheap}}}",
        "jury": f"llm-jury: {{rubric: '{RUBRIC}', jurors: [{seats}], quorum: 0.5}}",
        "cascade": (f"llm-judge: {{rubric: '{RUBRIC}', model: {cheap}, calibration: "
                    f"{{file: cascade.json}}, escalate: [{{llm-jury: {{jurors: [{seats}], "
                    "quorum: 0.5}}]}"),
    }[kind]
    return f"""
variables:
  python: {{ from_env: MCPTEST_PYTHON, default: python3 }}
servers:
  example: {{ command: ["${{python}}", "example_server.py"], cwd: {ROOT / "examples/server"} }}
judge:
  max_tokens: 200
  concurrency: 32
  pricing: {{ {pricing} }}
tools:
  - name: {kind}
    server: example
    tool: greet
    args: {{ name: "${{candidate}}" }}
    cases: {{ file: held.jsonl }}
    expect:
      - target: result.content[0].text
        matcher: {{ {matcher} }}
"""


def _mcptest(folder: Path, env: dict[str, str], *args: str) -> None:
    run = subprocess.run([sys.executable, "-m", "mcptest", *args], cwd=folder, env=env,
                         capture_output=True, text=True, timeout=900)
    if run.returncode not in (0, 1):
        raise SystemExit(f"mcptest {' '.join(args)}: exit {run.returncode}\n{run.stderr}")


def _graded(report: dict, human: dict[str, bool]) -> tuple[float, float, list[int]]:
    """(cost per verdict, agreement with the labels, verdicts per tier) of one run."""
    rows = report["tests"]
    agreed, tiers = 0, [0, 0]
    for row in rows:
        a = row["assertions"][0]
        agreed += (a["status"] == "passed") == human[row["cell"]["case"]]
        e = (a.get("judge") or {}).get("escalation")
        if e and e["decided_by"]:
            tiers[e["decided_by"] - 1] += 1
    return report["summary"]["cost_usd"] / len(rows), agreed / len(rows), tiers


def one_split(seed: int, data: list, js: object, folder: Path, env: dict[str, str]) -> dict:
    from support.cascade_sim import CHEAP, JURORS, PRICES

    cal, held = data[:250], data[250:]  # a fresh pool, drawn in random order
    (folder / "labels.jsonl").write_text("".join(
        json.dumps({"id": it.id, "candidate": f"Hello, {it.candidate}!",
                    "human": "pass" if it.human else "fail"}) + "\n" for it in cal))
    (folder / "held.jsonl").write_text("".join(
        json.dumps({"name": it.id, "candidate": it.candidate}) + "\n" for it in held))
    for kind in ("cheap", "jury", "cascade"):
        (folder / f"{kind}.yml").write_text(_suite(kind, CHEAP, JURORS, PRICES))
    _mcptest(folder, env, "calibrate", "cascade.yml", "--labels", "labels.jsonl", "--no-cache",
             "--target-agreement", str(TARGET), "--risk", str(RISK))
    record = json.loads((folder / "cascade.json").read_text())["cascade"]
    human = {it.id: it.human for it in held}
    out: dict = {"guaranteed": record["guaranteed_agreement"]}
    for kind in ("cheap", "jury", "cascade"):
        _mcptest(folder, env, "run", f"{kind}.yml", "--no-cache", "-q", "--reporter", "json",
                 "--output", f"{kind}.json")
        report = json.loads((folder / f"{kind}.json").read_text())
        out[kind] = _graded(report, human)
        if kind == "cascade":
            out["summary"] = report["summary"]["cascade"]
    return out


def sweep(reps: int) -> None:
    """The label-count table of docs/cascade.md, before and after issue 35."""
    from support.label_sweep import COUNTS, JUDGES
    from support.label_sweep import sweep as run_sweep

    counts = (*COUNTS, 1000)
    print(f"{reps} seeded calibrations per count (labels nested: each count adds to the one "
          f"before); target {TARGET:.0%}, risk {RISK:g}, two tiers\n")
    for judge in JUDGES.values():
        old, new = run_sweep(judge, reps, counts, old=True), run_sweep(judge, reps, counts)
        print(f"{judge.name}: {judge.says}\n")
        print("| labels | " + " | ".join(str(n) for n in counts) + " |")
        print("|---|" + "---|" * len(counts))
        for name, rows in (("before", old), ("after", new)):
            print(f"| trusted, {name} | " + " | ".join(f"{r.trusted:.0%}" for r in rows) + " |")
        for name, rows in (("before", old), ("after", new)):
            print(f"| settles, {name} | " + " | ".join(f"{r.coverage:.0%}" for r in rows) + " |")
        print("| lost since the count before, after | "
              + " | ".join("" if r is new[0] else f"{r.lost:.0%}" for r in new) + " |")
        print("| guarantee kept, after | " + " | ".join(f"{r.kept:.1%}" for r in new) + " |\n")
        for a, b in itertools.pairwise(new):
            if b.trusted < a.trusted or b.coverage < a.coverage:
                raise SystemExit(f"{judge.name}: fewer trusted or less settled with {b.labels} "
                                 f"labels than with {a.labels}")
        if min(r.kept for r in new) < 1 - RISK:
            raise SystemExit(f"{judge.name}: the guarantee held in fewer than {1 - RISK:.0%}")


def main() -> None:
    from support.cascade_sim import items
    from support.judge_server import JudgeServer, Verdict

    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5, help="splits to run (default 5)")
    parser.add_argument("--sweep", type=int, nargs="?", const=2000, metavar="REPS",
                        help="the label-count table instead (default 2000 calibrations a count)")
    args = parser.parse_args()
    if args.sweep:
        sweep(args.sweep)
        return
    seeds = args.seeds
    results = []
    with JudgeServer() as js, tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, **js.gateway_env(), "MCPTEST_PYTHON": sys.executable}
        for seed in range(seeds):
            data = items(seed=100 + seed)  # a fresh pool per split; the last script wins
            for it in data:
                for model, score in it.scores.items():
                    js.script(model, Verdict(score=score, reason="scripted"),
                              candidate=it.candidate)
            results.append(one_split(seed, data, js, Path(tmp), env))
            r = results[-1]
            print(f"seed {seed}: " + " · ".join(
                f"{k} ${r[k][0]:.6f}/verdict, agreement {r[k][1]:.1%}"
                for k in ("cheap", "jury", "cascade"))
                + f" · tier 1 settled {r['cascade'][2][0]}/250"
                + f" · guaranteed {r['guaranteed']:.1%}", flush=True)
    print(f"\n{len(results)} split(s), each a fresh pool of 500 scripted answers, 250 graded per run; target "
          f"agreement {TARGET:.0%}, risk {RISK:g}\n")
    print("| judge | cost per verdict | agreement with the labels | tier 1 settled |")
    print("|---|---|---|---|")
    for kind in ("cheap", "jury", "cascade"):
        cost = statistics.fmean(r[kind][0] for r in results)
        agree = statistics.fmean(r[kind][1] for r in results)
        low = min(r[kind][1] for r in results)
        settled = (f"{statistics.fmean(r['cascade'][2][0] for r in results) / 250:.0%}"
                   if kind == "cascade" else "")
        print(f"| {kind} | ${cost:.6f} | {agree:.1%} (lowest {low:.1%}) | {settled} |")
    jury = statistics.fmean(r["jury"][0] for r in results)
    cascade = statistics.fmean(r["cascade"][0] for r in results)
    kept = sum(r["cascade"][1] >= TARGET for r in results)
    print(f"\ncascade: {1 - cascade / jury:.0%} cheaper than the jury alone; agreement ≥ "
          f"{TARGET:.0%} in {kept} of {len(results)} split(s); guaranteed "
          f"{min(r['guaranteed'] for r in results):.1%} at least")
    if cascade >= jury:
        raise SystemExit("the cascade cost as much as the jury alone")


if __name__ == "__main__":
    main()
