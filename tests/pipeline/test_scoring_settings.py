"""Review fixes for references, weighted tiers and custom judges (docs/cascade.md, "Weighted
tiers and a reference"; docs/jury.md, "Repetitions sample"): settings that would be accepted and
then ignored are load errors at their key, a custom judge's score outside 0..1 is its error, and
a jury's `temperature` is sent whenever given. Each case runs the CLI as a user does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode
from mcptest.suite.yaml_bounds import MAX_FILE_BYTES

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

TEST = """tools:
  - name: t
    server: ex
    tool: search_services
    args: {query: payments, limit: 1}
"""


def write(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "suite.yml"
    path.write_text(HEAD + TEST + body, encoding="utf-8")
    return path


def refused(path: Path) -> str:
    r = cli("validate", path, cwd=path.parent)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stdout + r.stderr
    return r.stderr


# ------------------------------------------------------------ settings that would be ignored

def test_a_weight_outside_a_weighted_test_is_a_load_error_at_the_key(tmp_path: Path) -> None:
    err = refused(write(tmp_path, """    expect:
      - target: result.structuredContent.total
        matcher: {exact: 3}
        weight: 3
"""))
    assert ("suite.yml:12:9: tools[0].expect[0].weight: `weight` only counts in a weighted "
            "test: add `scoring: {mode: weighted}` to the test") in err, err


def test_a_threshold_with_mode_gate_is_a_load_error_at_the_key(tmp_path: Path) -> None:
    err = refused(write(tmp_path, """    scoring: {mode: gate, threshold: 0.5}
    expect:
      - {target: result.structuredContent.total, matcher: {exact: 3}}
"""))
    assert ("suite.yml:9:27: tools[0].scoring.threshold: `threshold` has no effect with "
            "`mode: gate`") in err, err
    ok = write(tmp_path, """    scoring: {mode: weighted, threshold: 0.5}
    expect:
      - {target: result.structuredContent.total, matcher: {exact: 3}, weight: 2}
""")
    assert cli("validate", ok).returncode == ExitCode.OK


def test_pass_at_k_refuses_booleans(tmp_path: Path) -> None:
    err = refused(write(tmp_path, """    repeat: 2
    pass_at_k: [true]
    expect:
      - {target: result.structuredContent.total, matcher: {exact: 3}}
"""))
    assert "tools[0].pass_at_k[0]" in err, err


# ---------------------------------------------------------------------- reference files

def test_file_null_is_a_file_reference_without_a_path(tmp_path: Path) -> None:
    err = refused(write(tmp_path, """    reference: {file: null}
    expect:
      - {target: result.structuredContent, matcher: {same-shape: {}}}
"""))
    assert ("suite.yml:9:5: tools[0].reference: `reference: {file: …}` needs a path (a "
            "string), got null") in err, err


def test_a_directory_or_oversized_reference_is_named_a_reference_file(tmp_path: Path) -> None:
    (tmp_path / "refdir").mkdir()
    body = """    reference: {file: REF}
    expect:
      - {target: result.structuredContent, matcher: {same-shape: {}}}
"""
    err = refused(write(tmp_path, body.replace("REF", "refdir")))
    assert "tools[0].reference: reference file `refdir` is a directory; give a file" in err
    assert "suite file" not in err, err
    (tmp_path / "big.json").write_text(" " * (MAX_FILE_BYTES + 1), encoding="utf-8")
    err = refused(write(tmp_path, body.replace("REF", "big.json")))
    assert "tools[0].reference: reference file `big.json` is larger than" in err, err
    assert "split the suite" not in err, err


# ------------------------------------------------------------------------- custom judges

JUDGE = """
def big(context):
    return {"score": 7, "reasoning": "big"}

def nan(context):
    return {"score": float("nan")}

def bare(context):
    return -0.5
"""


@pytest.mark.parametrize(("fn", "shown"), [("big", "7"), ("nan", "nan"), ("bare", "-0.5")])
def test_a_custom_judge_score_outside_0_1_is_a_judge_error(tmp_path: Path, fn: str,
                                                            shown: str) -> None:
    (tmp_path / "oddjudge.py").write_text(JUDGE, encoding="utf-8")
    path = write(tmp_path, f"""    scoring: {{mode: weighted, threshold: 0.5}}
    expect:
      - target: result.structuredContent
        matcher: {{custom-judge: {{python: "oddjudge:{fn}"}}}}
""")
    r, rep = run_json(path)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    test = rep["tests"][0]
    assert test["status"] == "error", json.dumps(test)
    message = (f"the judge returned score {shown}: a score must be a number from 0 to 1")
    assert message in r.stdout, r.stdout
    assert "pass (score" not in r.stdout and "weighted nan" not in r.stdout, r.stdout


# ---------------------------------------------------------------------- jury temperature

def test_a_jury_temperature_is_sent_without_repetitions(tmp_path: Path, js: JudgeServer) -> None:
    js.script("juror-t", Verdict(score=0.9))
    jurors = json.dumps([{"model": "juror-t", "base_url": js.base_url}])
    path = tmp_path / "suite.yml"
    path.write_text("judge: {temperature: 0.3}\n" + HEAD + TEST + f"""    expect:
      - target: result.content[0].text
        matcher:
          llm-jury: {{rubric: "Reads well.", temperature: 0.9, jurors: {jurors}}}
""", encoding="utf-8")
    r, _ = run_json(path)
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    assert [b.get("temperature") for b in js.requests("juror-t")] == [0.9]


def test_repetitions_at_temperature_0_point_at_the_temperature_key(tmp_path: Path) -> None:
    err = refused(write(tmp_path, """    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Reads well."
            repetitions: 3
            temperature: 0
            jurors: [{model: a}]
"""))
    assert "suite.yml:15:26: tools[0].expect[0].matcher.llm-jury.temperature: 3 repetitions" \
        in err, err
