"""`mcptest run --baseline` and `mcptest diff` as a user runs them: the example server, real
reports, a behaviour change the server reads from its environment, and an edited suite. The
commands run in the test's process (support/cli_inproc.py) with the environment a subprocess
would be given: PATH, HOME and FLAG alone."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from support.cli_inproc import Ran, cli

pytestmark = pytest.mark.slow  # starts real servers or subprocesses
REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"

HEAD = f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
    env: {{FLAG: {{env: FLAG}}}}
tools:
  - name: flag is on
    server: ex
    tool: get_env
    args: {{name: FLAG}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "on"}}}}]
  - name: flag is off
    server: ex
    tool: get_env
    args: {{name: FLAG}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "off"}}}}]
  - name: always wrong
    server: ex
    tool: greet
    args: {{name: Bob}}
    expect: [{{target: "result.content[0].text", matcher: {{contains: Ada}}}}]
"""
OLD = HEAD + """
  - name: greets Ada
    server: ex
    tool: greet
    args: {name: Ada}
    expect: [{target: "result.content[0].text", matcher: {exact: "Hello, Ada!"}}]
  - name: only in the old suite
    server: ex
    tool: add
    args: {a: 1, b: 2}
"""
NEW = HEAD + """
  - name: greets Ada
    server: ex
    tool: greet
    args: {name: Ada}
    expect: [{target: "result.content[0].text", matcher: {contains: "Ada"}}]
  - name: brand new
    server: ex
    tool: add
    args: {a: 2, b: 2}
"""


def mcptest(*args: str | Path, flag: str, cwd: Path = REPO) -> Ran:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/"),
           "FLAG": flag}
    return cli(*args, cwd=cwd, env=env, inherit=False)


def write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return path


def checkout(tmp_path: Path, body: str) -> str:
    """The suite as a branch has it: same path, this content (ids carry the path)."""
    write(tmp_path, "mcptest.yml", body)
    return "mcptest.yml"


def baseline(tmp_path: Path) -> Path:
    """The base branch's run: `flag is on` passes, `flag is off` and `always wrong` fail."""
    out = tmp_path / "base.json"
    r = mcptest("run", checkout(tmp_path, OLD), "--reporter", "json", "--output", out,
                flag="on", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    return out


def test_every_classification_through_the_cli(tmp_path: Path) -> None:
    base = baseline(tmp_path)
    new_suite = checkout(tmp_path, NEW)
    new, md = tmp_path / "new.json", tmp_path / "comment.md"
    r = mcptest("run", new_suite, "--baseline", base, "--reporter", "json", "--output", new,
                "--reporter", "md", "--output", md, "--reporter", "sarif", "--output",
                tmp_path / "r.sarif", flag="off", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    data = json.loads(new.read_text(encoding="utf-8"))
    comparison = data["comparison"]
    got = {row["name"]: row["change"] for row in comparison["rows"]}
    assert got == {"flag is on": "regressed", "flag is off": "fixed",
                   "always wrong": "still_failing", "greets Ada": "changed",
                   "brand new": "new", "only in the old suite": "removed"}
    by_name = {t["name"]: t for t in data["tests"]}
    assert by_name["flag is on"]["baseline"]["change"] == "regressed"
    assert by_name["greets Ada"]["definition_hash"] != json.loads(
        base.read_text(encoding="utf-8"))["tests"][3]["definition_hash"]
    # the comment leads with the difference; the full results follow, collapsed
    text = md.read_text(encoding="utf-8")
    html = cmarkgfm.github_flavored_markdown_to_html(
        text, options=Options.CMARK_OPT_UNSAFE)
    assert html.index("Compared with the baseline") < html.index("<details><summary>Full")
    assert html.index("Regressed: 1") < html.index("Fixed: 1")
    sarif = json.loads((tmp_path / "r.sarif").read_text(encoding="utf-8"))
    states = {res["properties"]["testId"].split("::")[-1]: res.get("baselineState")
              for res in sarif["runs"][0]["results"]}
    assert states == {"flag is on": "new", "always wrong": "unchanged"}


def test_fail_on_regressed_blocks_only_what_the_change_broke(tmp_path: Path) -> None:
    base = baseline(tmp_path)
    same = mcptest("run", "mcptest.yml", "--baseline", base, "--fail-on", "regressed", flag="on",
                   cwd=tmp_path)
    assert same.returncode == 0, same.stdout + same.stderr  # old failures only
    broke = mcptest("run", "mcptest.yml", "--baseline", base, "--fail-on", "regressed",
                    flag="off", cwd=tmp_path)
    assert broke.returncode == 1, broke.stderr
    assert "regressed" in broke.stdout.lower()


def test_diff_of_two_saved_reports(tmp_path: Path) -> None:
    base = baseline(tmp_path)
    itself = mcptest("diff", base, base, "--fail-on", "regressed", "--format", "json", flag="")
    assert itself.returncode == 0, itself.stderr
    assert json.loads(itself.stdout)["comparison"]["counts"] == {
        "unchanged": 3, "still_failing": 2}
    new = tmp_path / "new.json"
    mcptest("run", "mcptest.yml", "--reporter", "json", "--output", new, flag="off",
            cwd=tmp_path)
    r = mcptest("diff", base, new, "--fail-on", "regressed", flag="")
    assert r.returncode == 1
    assert "flag is on" in r.stdout
    # the terminal gets what moved, not the whole report again (issue 37): the unchanged rows
    # are counted, not reprinted
    shown = [line for line in r.stdout.splitlines() if line.startswith(("✓ ", "✗ ", "! "))]
    moved = {row["name"] for row in json.loads(mcptest(
        "diff", base, new, "--reporter", "json", flag="").stdout)["comparison"]["rows"]
        if row["change"] != "unchanged"}
    assert {line.split("  ")[1] for line in shown} == moved
    assert "greets Ada" not in moved and "greets Ada" not in r.stdout


def test_a_bad_baseline_is_exit_2_before_anything_runs(tmp_path: Path) -> None:
    bad = write(tmp_path, "bad.json", "{not json")
    suite = write(tmp_path, "old.yml", OLD)
    r = mcptest("run", suite, "--baseline", bad, flag="on")
    assert r.returncode == 2
    assert "bad.json:1:2" in r.stderr
    r = mcptest("run", suite, "--fail-on", "regressed", flag="on")
    assert r.returncode == 2
    assert "--baseline" in r.stderr


def test_a_suites_max_score_drop_is_carried_on_its_rows(tmp_path: Path) -> None:
    body = OLD.replace("tools:", "max_score_drop: 0.1\ntools:", 1).replace(
        "    args: {name: Ada}\n", "    args: {name: Ada}\n    max_score_drop: 0.3\n", 1)
    out = tmp_path / "r.json"
    mcptest("run", checkout(tmp_path, body), "--reporter", "json", "--output", out, flag="on",
            cwd=tmp_path)
    rows = {t["name"]: t for t in json.loads(out.read_text(encoding="utf-8"))["tests"]}
    assert rows["greets Ada"]["max_score_drop"] == 0.3
    assert rows["flag is on"]["max_score_drop"] == 0.1
