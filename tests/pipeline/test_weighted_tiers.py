"""Weighted tiers (docs/cascade.md, "Weighted tiers and a reference"): `scoring: {mode:
weighted}` against the gate, judges skipped only when the threshold is out of reach, and unscored
judges that never let the rest pass. The CLI runs against the example server and the loopback
judge server, as a user would."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, REPO, run_json
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def suite(tmp_path: Path, js: JudgeServer, scoring: str, *, city: str = "Oslo",
          judge_model: str = "judge-w", threshold: float = 0.7) -> Path:
    """One forecast test: a check that passes (weight 2), one that fails (weight 1), and an LLM
    judge (weight 1). A gate test (no `scoring`) has no weights: one there is a load error."""
    weight = "\n        weight: 2" if scoring else ""
    path = tmp_path / "weighted.yml"
    path.write_text(HEAD + f"""tools:
  - name: forecast
    server: ex
    tool: forecast
    args: {{city: {city}}}
{scoring}
    expect:
      - target: result.structuredContent.city
        matcher: {{exact: {city}}}{weight}
      - target: result.structuredContent.conditions
        matcher: {{exact: no such weather}}
      - target: result.content[0].text
        matcher:
          llm-judge: {{rubric: "A forecast.", model: {judge_model}, base_url: "{js.base_url}",
                      threshold: {threshold}}}
""", encoding="utf-8")
    return path


def test_weighted_passes_where_the_gate_fails(tmp_path: Path, js: JudgeServer) -> None:
    js.script("judge-w", Verdict(score=0.8))
    gate, rep = run_json(suite(tmp_path, js, ""))
    assert gate.returncode == ExitCode.TESTS_FAILED
    assert rep["tests"][0]["status"] == "failed"
    assert rep["tests"][0]["assertions"][2]["status"] == "skipped"  # the gate sends no judge
    assert js.count("judge-w") == 0

    r, rep = run_json(suite(tmp_path, js, "    scoring: {mode: weighted, threshold: 0.7}"))
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    t = rep["tests"][0]
    assert js.count("judge-w") == 1  # reachable: 3 of 4 weight still possible
    assert t["status"] == "passed"
    assert t["weighted"] == {"score": 0.7, "threshold": 0.7, "best": None}
    assert [(a["weight"], a["score"], a["contribution"]) for a in t["assertions"]] == [
        (2.0, 1.0, 0.5), (1.0, 0.0, 0.0), (1.0, 0.8, 0.2)]
    assert t["message"] == "weighted score 0.70 ≥ threshold 0.70"
    assert "weighted 0.70 ≥ 0.70" in r.stdout
    assert "exact · failed · weight 1, +0.00" in r.stdout
    assert "llm-judge · passed · weight 1, +0.20" in r.stdout
    md = cli("report", tmp_path / "weighted.json", "--format", "md")
    assert md.returncode == 0, md.stderr
    assert "| ❌ |" not in md.stdout  # the failed check failed nothing


def test_weighted_fails_where_the_gate_passes(tmp_path: Path, js: JudgeServer) -> None:
    """Every assertion passes its own line, but the weighted score stays under 0.9."""
    js.script("judge-w", Verdict(score=0.6))
    path = tmp_path / "w.yml"
    path.write_text(HEAD + f"""tools:
  - name: gate
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - &contains
        target: result.content[0].text
        matcher: {{contains: Ada}}
      - &judge
        target: result.content[0].text
        matcher:
          llm-judge: {{rubric: "A greeting.", model: judge-w, base_url: "{js.base_url}",
                      threshold: 0.5}}
  - name: weighted
    server: ex
    tool: greet
    args: {{name: Ada}}
    scoring: {{mode: weighted, threshold: 0.9}}
    expect:
      - *contains
      - {{<<: *judge, weight: 3}}
""", encoding="utf-8")
    r, rep = run_json(path)
    rows = {t["name"]: t for t in rep["tests"]}
    assert rows["gate"]["status"] == "passed"
    assert rows["gate"]["weighted"] is None and rows["gate"]["assertions"][1]["weight"] is None
    w = rows["weighted"]
    assert [a["status"] for a in w["assertions"]] == ["passed", "passed"]
    assert w["status"] == "failed" and w["gap"] == "judgment"
    assert w["weighted"]["score"] == 0.7  # (1·1 + 3·0.6) / 4
    assert w["message"] == "weighted score 0.70 < threshold 0.90"
    assert r.returncode == ExitCode.TESTS_FAILED
    assert "weighted score 0.70 < threshold 0.90" in r.stdout
    md = cli("report", path.with_suffix(".json"), "--format", "md").stdout
    assert ("| ❌ | weighted | weighted score <code>greet</code> | weighted score 0.70 &#60; "
            "threshold 0.90 |") in md, md


def test_judges_are_skipped_only_when_the_threshold_is_out_of_reach(
        tmp_path: Path, js: JudgeServer) -> None:
    """The city check (weight 2 of 4) fails too: at most 0.25 + … = 0.25 < 0.3, no judge."""
    js.script("judge-w", Verdict(score=1.0))
    path = suite(tmp_path, js, "    scoring: {mode: weighted, threshold: 0.3}")
    path.write_text(path.read_text().replace("matcher: {exact: Oslo}",
                                             "matcher: {exact: Bergen}"))
    r, rep = run_json(path)
    assert r.returncode == ExitCode.TESTS_FAILED
    t = rep["tests"][0]
    assert js.count("judge-w") == 0
    judge = t["assertions"][2]
    assert judge["status"] == "skipped"
    assert judge["message"] == ("not sent: the weighted score can no longer reach the "
                                "threshold (at most 0.25 < 0.30)")
    assert t["status"] == "failed" and t["weighted"]["score"] == 0.0
    assert "not sent: the weighted score can no longer reach the threshold" in r.stdout


def test_an_unscored_judge_never_lets_the_rest_pass(tmp_path: Path, js: JudgeServer) -> None:
    """The judge has no key (deferred): the checks alone reach 0.75 ≥ 0.5, but the test is
    deferred, not passed; with the threshold out of reach whatever it says, it fails."""
    path = tmp_path / "d.yml"
    body = HEAD + """tools:
  - name: forecast
    server: ex
    tool: forecast
    args: {city: Oslo}
    scoring: {mode: weighted, threshold: THRESHOLD}
    expect:
      - target: result.structuredContent.city
        matcher: {exact: Oslo}
        weight: 3
      - target: result.content[0].text
        matcher: {llm-judge: {rubric: "A forecast.", model: gpt-4o}}
"""
    path.write_text(body.replace("THRESHOLD", "0.5"), encoding="utf-8")
    r, rep = run_json(path)
    t = rep["tests"][0]
    assert t["assertions"][1]["status"] == "deferred"
    assert t["status"] == "deferred", t["message"]
    assert t["weighted"] == {"score": 0.75, "threshold": 0.5, "best": 1.0}
    assert t["message"].startswith("weighted score not settled: 1 assertion(s) not scored "
                                   "(deferred)")
    assert r.returncode == ExitCode.OK  # deferred, as without weights

    path.write_text(body.replace("THRESHOLD", "0.5").replace("exact: Oslo", "exact: Rome"),
                    encoding="utf-8")
    r, rep = run_json(path)
    t = rep["tests"][0]
    assert t["status"] == "failed" and r.returncode == ExitCode.TESTS_FAILED
    assert t["assertions"][1]["status"] == "skipped"  # 0.25 at most: nothing sent


def test_the_worked_example_of_docs_cascade_md(tmp_path: Path) -> None:
    """examples/reference.yml prints what docs/cascade.md shows: the gate would fail it (the
    custom judge scores 0.50 < 0.70), the weighted score passes it."""
    out = tmp_path / "r.json"
    r = cli("run", "examples/reference.yml", "--no-cache", "--reporter", "pretty",
                "--reporter", "json", "--output", out, cwd=REPO,
                env={"MCPTEST_PYTHON": sys.executable})
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    doc = (REPO / "docs" / "cascade.md").read_text(encoding="utf-8")
    for line in r.stdout.splitlines()[2:7]:
        shown = re.sub(r"\d+ ms", "8 ms", line)
        assert shown in doc, shown
    t = json.loads(out.read_text(encoding="utf-8"))["tests"][0]
    assert t["weighted"]["score"] == 0.875 and t["assertions"][2]["status"] == "failed"
