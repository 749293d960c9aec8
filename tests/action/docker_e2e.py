"""Run the Action's image the way GitHub runs a Docker action, and check what it leaves behind.

Called by .ci/docker-e2e.sh after it built the image. Two runs against examples/basics.yml and a
suite of its own (failing in run 1, fixed in run 2), both using the example server, in a
throwaway workspace mounted at /github/workspace (the working directory), with INPUT_* variables,
a pull_request event at /github/workflow/event.json, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY as
files under /github/file_commands, and GITHUB_API_URL at the loopback GitHub server on the host
(`--network host`). Checks: run 1 fails (non-zero exit) and creates the PR comment; run 2 passes
and updates that same comment; the outputs file holds every output of action.yml; the summary is
written. Then a plain `docker run IMAGE run` of an llm-judge and a three-juror llm-jury suite,
routed with MCPTEST_JUDGE_BASE_URL to the loopback judge server on the host: both must pass on
the server's verdicts (not deferred), which proves the image's trimmed litellm still judges.
Then the shard matrix of docs/action.md on a pull request of its own: two `shard: i/2` runs with
`comment: false` and a `mode: merge` run, which must post exactly one comment and exit 1 because
one shard failed.
Then the image's Node: `node --version` is 22 or newer, and npm's server-everything (from
tests/tools, mounted read-only) answers a tool test under it.
Prints the image size and the cold start of a plain `docker run IMAGE run suite.yml`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "src")]

import yaml  # noqa: E402
from support.github_events import pull_request_event  # noqa: E402
from support.github_server import GitHubServer  # noqa: E402
from support.judge_server import JudgeServer, Verdict  # noqa: E402

from mcptest.action.outputs import parse_outputs  # noqa: E402

TOKEN = "ghs_e2eLoopbackToken0123456789"
PR = 42
SUITE = """\
servers:
  example:
    command: [python, examples/server/example_server.py]
tools:
  - name: adds two numbers
    server: example
    tool: add
    args: {{a: 2, b: 3}}
    expect:
      - target: result.structuredContent.result
        matcher: {{exact: {expected}}}
  - name: greets by name
    server: example
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher: {{contains: Ada}}
"""
EVERYTHING = "@modelcontextprotocol/server-everything"
NODE_SUITE = f"""\
servers:
  everything:
    command: [node, /tools/node_modules/{EVERYTHING}/dist/index.js, stdio]
tools:
  - name: echoes through a Node server
    server: everything
    tool: echo
    args: {{message: hi}}
    expect:
      - target: result.content[0].text
        matcher: {{exact: "Echo: hi"}}
"""
JUDGE_KEY = "sk-e2eJudgeGatewayKey0123456789"
JUDGE_SUITE = """\
servers:
  example:
    command: [python, examples/server/example_server.py]
tools:
  - name: note judged
    server: example
    tool: release_note
    args: {service: billing, tag: v2.4.1}
    expect:
      - target: result.content[0].text
        matcher:
          llm-judge: {rubric: Reads as a deployment note., model: e2e-judge, threshold: 0.7}
  - name: note juried
    server: example
    tool: release_note
    args: {service: checkout, tag: v7.0.0}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: Names the service and the tag.
            threshold: 0.7
            quorum: 0.67
            jurors: [{model: e2e-juror-a}, {model: e2e-juror-b}, {model: e2e-juror-c}]
"""
JURORS = ("e2e-juror-a", "e2e-juror-b", "e2e-juror-c")


def check(condition: bool, what: str) -> None:
    print(("ok    " if condition else "FAIL  ") + what, flush=True)
    if not condition:
        raise SystemExit(1)


def action_run(docker: str, image: str, base: Path, api_url: str,
               **overrides: str) -> tuple[int, str, float]:
    """One `docker run` with the flags GitHub's runner passes to a Docker action; `overrides`
    are inputs by their action.yml names with `_` for `-`."""
    inputs = {
        "suites": "examples/basics.yml\nsuites/*.yml", "max-cost": "0.10", "reporters": "junit", "output-dir":
        "mcptest-results", "sarif": "mcptest.sarif", "comment": "true", "comment-mode": "update",
        "github-token": TOKEN, "require-judge": "false", "concurrency": "", "shard": "",
        "working-directory": ".",
    } | {k.replace("_", "-"): v for k, v in overrides.items()}
    env = {f"INPUT_{k.upper()}": v for k, v in inputs.items()} | {
        "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_REPOSITORY": "octo/repo",
        "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": "/github/workflow/event.json",
        "GITHUB_OUTPUT": "/github/file_commands/set_output",
        "GITHUB_STEP_SUMMARY": "/github/file_commands/step_summary",
        "GITHUB_WORKSPACE": "/github/workspace", "GITHUB_API_URL": api_url, "HOME": "/github/home",
    }
    argv = [docker, "run", "--rm", "--network", "host", "--workdir", "/github/workspace"]
    for key, value in env.items():
        argv += ["-e", f"{key}={value}"]
    for host, inside in (("workspace", "/github/workspace"), ("home", "/github/home"),
                         ("workflow", "/github/workflow"), ("file_commands",
                                                            "/github/file_commands")):
        argv += ["-v", f"{base / host}:{inside}"]
    started = time.perf_counter()
    done = subprocess.run([*argv, image], capture_output=True, text=True, timeout=300)
    return done.returncode, done.stdout + done.stderr, time.perf_counter() - started


def judge_run(docker: str, image: str, ws: Path) -> None:
    """LLM judge and jury through the image's litellm, against the judge server on the host."""
    (ws / "judges").mkdir()
    (ws / "judges" / "judged.yml").write_text(JUDGE_SUITE)
    with JudgeServer() as js:
        js.script("e2e-judge", Verdict(score=0.9, reason="names service and tag"))
        js.script(JURORS[0], Verdict(score=0.9))
        js.script(JURORS[1], Verdict(score=0.8))
        js.script(JURORS[2], Verdict(score=0.2, reason="too terse"))
        argv = [docker, "run", "--rm", "--network", "host", "-v", f"{ws}:/work", "-w", "/work",
                "-e", f"MCPTEST_JUDGE_BASE_URL={js.base_url}",
                "-e", f"MCPTEST_JUDGE_API_KEY={JUDGE_KEY}", image, "run", "judges/judged.yml",
                "--reporter", "json", "--no-cache", "--require-judge"]
        started = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, timeout=300)
        took = time.perf_counter() - started
        calls = {m: js.count(m) for m in ("e2e-judge", *JURORS)}
    if done.returncode != 0:
        print(done.stdout[-2000:] + done.stderr[-3000:])
    check(done.returncode == 0, f"judge suite in the container exits 0 (got {done.returncode}, "
          f"{took:.1f} s)")
    report = json.loads(done.stdout)
    counts = report["summary"]["counts"]
    check(counts["passed"] == 2 and counts["deferred"] == 0, f"judge and jury passed, none "
          f"deferred ({counts})")
    messages = [a.get("message", "") for t in report["tests"] for a in t["assertions"]]
    check(any("names service and tag" in m for m in messages), "the judge's verdict came from "
          "the judge server")
    check(any("2/3" in m for m in messages), "the jury counted the server's three verdicts")
    check(all(n == 1 for n in calls.values()), f"one request per judge and juror ({calls})")
    check(JUDGE_KEY not in done.stdout + done.stderr, "the judge key is not in the output")


def merge_run(docker: str, image: str, base: Path) -> None:
    """The matrix of docs/action.md, "Shards", in the image: two shard jobs (`shard: i/2`,
    `comment: false`; the one that draws the failing test fails), then a `mode: merge` job that
    posts the one comment and exits with the merged run's code. A pull request of its own."""
    ws, pr = base / "workspace", PR + 1
    (base / "workflow" / "event.json").write_text(json.dumps(
        pull_request_event(pr, action="opened")))
    (ws / "suites" / "example.yml").write_text(SUITE.format(expected=6))  # `adds` fails
    with GitHubServer(token=TOKEN) as gh:
        shards = [action_run(docker, image, base, gh.url, suites="suites/*.yml", shard=f"{i}/2",
                             comment="false", sarif="", output_dir=f"shard-{i}")
                  for i in (1, 2)]
        before = gh.comments(pr)
        # The suite passes now: a merge that ran it again instead of reading the shard
        # reports would exit 0 and report 2 passed.
        (ws / "suites" / "example.yml").write_text(SUITE.format(expected=5))
        (base / "file_commands" / "set_output").write_text("")
        code, log, took = action_run(docker, image, base, gh.url, mode="merge", max_cost="",
                                     suites="suites/*.yml", output_dir="merged",
                                     shard_reports="shard-*/mcptest.json")
        after = gh.comments(pr)
    if code != 1:
        print(log[-3000:])
    check(sorted(c for c, _, _ in shards) == [0, 1], "the shard that drew the failing test "
          f"failed, the other passed ({[c for c, _, _ in shards]})")
    check(before == [], "no shard job commented (comment: false)")
    check(code == 1, f"the merge job exits with the shard reports' code 1 ({took:.1f} s)")
    check(len(after) == 1, f"the merge job posted exactly one comment ({len(after)})")
    check("adds two numbers" in after[0]["body"] and "greets by name" in after[0]["body"],
          "the one comment covers both shards' tests")
    outputs = parse_outputs((base / "file_commands" / "set_output").read_text())
    check((outputs["passed"], outputs["failed"]) == ("1", "1"),
          f"merged outputs: {outputs['passed']} passed, {outputs['failed']} failed")
    check(TOKEN not in log + "".join(out for _, out, _ in shards), "no token in the logs")


def node_checks(docker: str, image: str, ws: Path) -> None:
    """The image's Node is current (>= 22, docs/action.md) and runs a Node MCP server: npm's
    server-everything from tests/tools (prepared by .ci/prepare-tools.sh), mounted read-only."""
    version = subprocess.run([docker, "run", "--rm", "--entrypoint", "node", image, "--version"],
                             capture_output=True, text=True, check=True).stdout.strip()
    major = int(version.lstrip("v").split(".")[0])
    check(major >= 22, f"the image's node --version is 22 or newer ({version})")
    modules = ROOT / "tests" / "tools" / "node_modules"
    if not (modules / EVERYTHING).is_dir() and not os.environ.get("CI"):
        print(f"skip  a Node MCP server in the image: no {EVERYTHING} (run .ci/prepare-tools.sh)")
        return
    (ws / "suites" / "node.yml").write_text(NODE_SUITE)
    done = subprocess.run([docker, "run", "--rm", "-v", f"{ws}:/work", "-w", "/work",
                           "-v", f"{modules}:/tools/node_modules:ro", image,
                           "run", "suites/node.yml"], capture_output=True, text=True, timeout=120)
    check(done.returncode == 0 and "1 passed" in done.stdout,
          f"npm's {EVERYTHING} runs under the image's Node {version}")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--docker", default="docker")
    parser.add_argument("--image", required=True)
    args = parser.parse_args()
    meta = yaml.safe_load((ROOT / "action.yml").read_text())

    base = Path(tempfile.mkdtemp(prefix="mcptest-docker-e2e-"))
    try:
        for name in ("workspace", "home", "workflow", "file_commands"):
            (base / name).mkdir()
        ws = base / "workspace"
        shutil.copytree(ROOT / "examples", ws / "examples",
                        ignore=shutil.ignore_patterns("__pycache__"))
        (ws / "suites").mkdir()
        (base / "workflow" / "event.json").write_text(json.dumps(
            pull_request_event(PR, action="opened")))
        (base / "file_commands" / "set_output").touch()
        (base / "file_commands" / "step_summary").touch()

        with GitHubServer(token=TOKEN) as gh:
            (ws / "suites" / "example.yml").write_text(SUITE.format(expected=6))
            code1, log1, t1 = action_run(args.docker, args.image, base, gh.url)
            after1 = gh.comments(PR)
            (ws / "suites" / "example.yml").write_text(SUITE.format(expected=5))
            code2, log2, t2 = action_run(args.docker, args.image, base, gh.url)
            after2 = gh.comments(PR)

        print(log1[-1500:])
        if code2 != 0:
            print(log2[-3000:])
        check(code1 == 1, f"failing suite → container exit 1 (got {code1}, {t1:.1f} s)")
        check(code2 == 0, f"fixed suite → container exit 0 (got {code2}, {t2:.1f} s)")
        check(len(after1) == 1, "run 1 created one PR comment at the GitHub server")
        check(len(after2) == 1 and after2[0]["id"] == after1[0]["id"],
              "run 2 updated the same comment in place")
        check(after1[0]["body"] != after2[0]["body"], "the comment's body changed")
        check(TOKEN not in log1 + log2, "the token is not in the container's log")
        outputs = parse_outputs((base / "file_commands" / "set_output").read_text())
        check(set(outputs) == set(meta["outputs"]), "the outputs file has every output")
        check(outputs["exit-code"] == "0" and outputs["failed"] == "0"
              and int(outputs["passed"]) >= 2, f"outputs of run 2 ({outputs['passed']} passed)")
        check(outputs["comment-url"] == after2[0]["html_url"], "comment-url output")
        sarif = outputs["sarif-file"]
        check(bool(sarif) and (ws / sarif).is_file(), f"SARIF written ({sarif or 'none'})")
        check((ws / "mcptest-results" / "mcptest.xml").is_file(), "junit report written")
        summary = (base / "file_commands" / "step_summary").read_text()
        check(summary.count("mcptest") >= 2, "the step summary was written by both runs")
        check("::error file=suites/example.yml" in log1, "run 1 annotated the failure")
        judge_run(args.docker, args.image, ws)
        merge_run(args.docker, args.image, base)

        size = subprocess.run([args.docker, "image", "inspect", "-f", "{{.Size}}", args.image],
                              capture_output=True, text=True, check=True).stdout.strip()
        print(f"image size: {int(size) / 1e6:.0f} MB")
        local = [args.docker, "run", "--rm", "-v", f"{ws}:/work", "-w", "/work", args.image]
        times = []
        for _ in range(3):
            started = time.perf_counter()
            done = subprocess.run([*local, "run", "suites/example.yml"], capture_output=True,
                                  text=True, timeout=120)
            times.append(time.perf_counter() - started)
            check(done.returncode == 0, "local `docker run IMAGE run suite.yml` passes")
        done = subprocess.run([*local, "run", "examples/start.yml"], capture_output=True,
                              text=True, timeout=120)
        check(done.returncode == 0 and "2 passed" in done.stdout,
              "a suite with `start:` runs the HTTP server it starts inside the image")
        node_checks(args.docker, args.image, ws)
        started = time.perf_counter()
        subprocess.run([*local, "--version"], capture_output=True, check=True, timeout=60)
        bare = time.perf_counter() - started
        print(f"cold start, docker run IMAGE run suite.yml (1 stdio server, 2 tests): "
              f"{min(times):.2f} s best of 3, {max(times):.2f} s worst; "
              f"docker run IMAGE --version: {bare:.2f} s")
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
