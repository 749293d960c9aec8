"""`mcptest calibrate` end to end: the example server, the loopback judge, the CLI
(docs/calibration.md)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import krippendorff
import numpy as np
import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import HEAD, on_shared_server
from support.judge_server import JudgeServer, Verdict

from mcptest.cli.main import main
from mcptest.exit_codes import ExitCode
from mcptest.llm.contracts import JudgeOptions
from mcptest.pipeline import RunOptions, run_plan
from mcptest.plan import build_plan
from mcptest.report.models import Report
from mcptest.suite.load import load_suites

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "calibration"
SERVER_OUTPUT = "Deployed billing v2.4.1 to production."

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def mcptest(*args: str | Path, env: dict[str, str], cwd: Path | None = None) -> Ran:
    """`mcptest ARGS` in this process (what it writes is the point, not the process), with the
    environment a subprocess got: this process's (the `gateway` fixture's judge included)."""
    return cli(*args, cwd=cwd, inherit=False,
               env={**os.environ, "MCPTEST_PYTHON": sys.executable, **env})


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


@pytest.fixture
def gateway(js: JudgeServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """The process environment routes judge calls to the loopback judge (in-process runs)."""
    env = {**js.gateway_env(), "MCPTEST_PYTHON": sys.executable}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    return env


@pytest.fixture
def example(tmp_path: Path) -> Path:
    """The worked example copied beside a copy of the example server (its `cwd: ../server`),
    the run's server the test process's shared one (`on_shared_server`)."""
    shutil.copytree(EXAMPLE, tmp_path / "calibration")
    shutil.copytree(REPO / "examples" / "server", tmp_path / "server")
    on_shared_server(tmp_path / "calibration" / "mcptest.yml")
    return tmp_path / "calibration"


def _synthetic(tmp_path: Path, js: JudgeServer, wrong: set[int]) -> Path:
    """50 labels (30 pass, 20 fail); the judge agrees with all but the `wrong` ones."""
    lines = []
    for i in range(50):
        human = "pass" if i < 30 else "fail"
        agrees = i not in wrong
        judge_passes = (human == "pass") == agrees
        js.script("release-judge", Verdict(score=0.9 if judge_passes else 0.2,
                                           reason=f"scripted #{i}"), candidate=f"#L{i:02d}#")
        lines.append(json.dumps({"id": f"L{i:02d}", "candidate": f"note #L{i:02d}#",
                                 "human": human, "by": "ana"}))
    path = tmp_path / "labels.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_judge_agreeing_on_45_of_50_gets_the_reference_kappa_and_alpha(
        tmp_path: Path, example: Path, js: JudgeServer) -> None:
    wrong = {3, 11, 27, 33, 48}  # three false fails, two false passes
    labels = _synthetic(tmp_path, js, wrong)
    out = tmp_path / "record.json"
    run = mcptest("calibrate", example / "mcptest.yml", "--labels", labels, "--out", out,
                  "--no-cache", env=js.gateway_env())
    assert run.returncode == 0, run.stderr
    record = json.loads(out.read_text())
    human = [1 if i < 30 else 0 for i in range(50)]
    judge = [h if i not in wrong else 1 - h for i, h in enumerate(human)]
    v = record["verdict"]
    assert v["labels"] == 50 and v["accuracy"] == pytest.approx(45 / 50)
    from sklearn.metrics import cohen_kappa_score  # at use: not in every worker

    assert v["kappa"] == pytest.approx(cohen_kappa_score(human, judge), abs=1e-9)
    ref = krippendorff.alpha(reliability_data=np.array([human, judge], dtype=float),
                             level_of_measurement="nominal")
    assert v["alpha"] == pytest.approx(ref, abs=1e-9)
    assert v["confusion"] == {"both_pass": 27, "both_fail": 18, "false_pass": 2,
                              "false_fail": 3}
    assert v["false_fail"]["rate"] == pytest.approx(3 / 30)
    assert v["false_pass"]["rate"] == pytest.approx(2 / 20)
    low, high = v["false_fail"]["ci95"]["low"], v["false_fail"]["ci95"]["high"]
    assert low < 0.1 < high
    assert sorted(d["label"] for d in record["disagreements"]) == [f"L{i:02d}" for i in
                                                                  sorted(wrong)]
    assert record["identity_hash"].startswith("sha256:")
    # printed: the confusion table and the disagreements; the markdown is written beside
    assert "| human pass | 27 | 3 (false fail) |" in run.stdout
    assert "## Disagreements (5)" in run.stdout and "scripted #33" in run.stdout
    written = out.with_suffix(".md").read_text()
    assert "| human pass | 27 | 3 (false fail) |" in written and "&#35;" in written


def _calibrate_example(example: Path, js: JudgeServer) -> int:
    """Script the judge to agree with every human label of the worked example, and calibrate
    (in-process: the `gateway` fixture routes the judge)."""
    js.script("release-judge", Verdict(score=0.2, reason="no rollback step"))  # the server's
    text = (example / "labels.yaml").read_text()
    import yaml

    for label in yaml.safe_load(text)["labels"]:
        js.script("release-judge", Verdict(score=0.9 if label["human"] == "pass" else 0.1),
                  candidate=label["candidate"])
    return main(["calibrate", str(example / "mcptest.yml"), "--labels",
                 str(example / "labels.yaml"), "--no-cache"])


def _report(example: Path, js: JudgeServer, *, require: bool = False) -> tuple[int, dict]:
    """One run of the example, in-process: (exit code, the JSON report as a dict)."""
    env = dict(os.environ)
    plan = build_plan(load_suites([example / "mcptest.yml"], env=env))
    judge = JudgeOptions(env=env, require_calibration=require, max_tries=1)
    report: Report = run_plan(plan, RunOptions(judge=judge, handle_signals=False)).report
    text = report.model_dump_json()
    (example / "report.json").write_text(text, encoding="utf-8")
    return report.summary.exit_code, json.loads(text)


def test_the_worked_example_calibrates_and_then_gates(example: Path, js: JudgeServer,
                                                      gateway: dict[str, str]) -> None:
    assert _calibrate_example(example, js) == 0
    record = json.loads((example / "release-note.calibration.json").read_text())
    assert record["labels"] == 24 and record["verdict"]["kappa"] == 1.0
    code, report = _report(example, js)
    a = report["tests"][0]["assertions"][0]
    assert code == ExitCode.TESTS_FAILED and a["status"] == "failed"
    assert a["calibration"]["state"] == "calibrated" and a["calibration"]["kappa"] == 1.0
    assert report["tests"][0]["gap"] == "judgment"
    assert report["summary"]["uncalibrated"] == 0
    sarif = mcptest("report", example / "report.json", "--format", "sarif", env={})
    result = json.loads(sarif.stdout)["runs"][0]["results"][0]
    assert result["properties"]["calibration"]["state"] == "calibrated"
    assert result["properties"]["calibration"]["labels"] == 24


def test_an_edited_rubric_makes_the_record_stale(example: Path, js: JudgeServer,
                                                 gateway: dict[str, str]) -> None:
    assert _calibrate_example(example, js) == 0
    check = mcptest("calibrate", example / "mcptest.yml", "--check", env={})
    assert check.returncode == 0 and "current" in check.stdout, check.stdout + check.stderr
    assert "24 labels, κ 1.000)" in check.stdout  # three decimals, as in the record's table
    suite = example / "mcptest.yml"
    suite.write_text(suite.read_text().replace("Marketing", "Hype"), encoding="utf-8")
    check = mcptest("calibrate", example / "mcptest.yml", "--check", env={})
    assert check.returncode == ExitCode.TESTS_FAILED and ": stale:" in check.stdout
    code, report = _report(example, js)
    a = report["tests"][0]["assertions"][0]
    assert a["calibration"]["state"] == "stale" and a["calibration"]["advisory"] is True
    assert code == ExitCode.OK


@pytest.mark.parametrize("record", ["missing", "stale", "below-floor"])
def test_advisory_verdicts_never_fail_without_require_calibration_and_always_with_it(
        example: Path, js: JudgeServer, gateway: dict[str, str], record: str) -> None:
    js.script("release-judge", Verdict(score=0.2, reason="no rollback step"))
    path = example / "release-note.calibration.json"
    if record != "missing":
        assert _calibrate_example(example, js) == 0
        data = json.loads(path.read_text())
        if record == "stale":
            data["identity_hash"] = "sha256:" + "0" * 64
        else:
            data["verdict"]["kappa"] = 0.3
        path.write_text(json.dumps(data), encoding="utf-8")
        js.script("release-judge", Verdict(score=0.2, reason="no rollback step"),
                  candidate=SERVER_OUTPUT)
    code, report = _report(example, js)
    a, t = report["tests"][0]["assertions"][0], report["tests"][0]
    assert code == ExitCode.OK
    assert a["status"] == "deferred" and t["gap"] is None
    assert a["calibration"] == a["calibration"] | {"state": record, "advisory": True,
                                                   "verdict": "failed"}
    assert a["message"].startswith("advisory (uncalibrated") and "score 0.20" in a["message"]
    assert report["summary"]["uncalibrated"] == 1
    code, report = _report(example, js, require=True)
    a, t = report["tests"][0]["assertions"][0], report["tests"][0]
    assert code == ExitCode.TESTS_FAILED
    assert a["status"] == "failed" and t["gap"] == "judge-calibration"
    assert a["message"].startswith("calibration required")
    assert report["summary"]["uncalibrated"] == 0


def test_a_passing_uncalibrated_verdict_stays_a_pass_and_is_counted(
        example: Path, js: JudgeServer, gateway: dict[str, str]) -> None:
    js.script("release-judge", Verdict(score=0.9))
    code, report = _report(example, js)
    a = report["tests"][0]["assertions"][0]
    assert code == ExitCode.OK and a["status"] == "passed"
    assert a["calibration"]["state"] == "missing" and a["calibration"]["advisory"] is True
    assert report["summary"]["uncalibrated"] == 1
    code, report = _report(example, js, require=True)
    assert code == ExitCode.TESTS_FAILED


def test_the_cli_flag_reaches_the_gate(example: Path, js: JudgeServer) -> None:
    js.script("release-judge", Verdict(score=0.2, reason="no rollback step"))
    base = ["run", example / "mcptest.yml", "--no-cache"]
    advisory = mcptest(*base, env=js.gateway_env())
    assert advisory.returncode == ExitCode.OK, advisory.stdout + advisory.stderr
    assert "1 uncalibrated (advisory)" in advisory.stdout
    assert "uncalibrated (missing, advisory)" in advisory.stdout
    required = mcptest(*base, "--require-calibration", env=js.gateway_env())
    assert required.returncode == ExitCode.TESTS_FAILED
    assert "judge-calibration" in required.stdout


def _jury_suite(tmp_path: Path, extra: str) -> Path:
    """A three-juror `llm-jury` over the example server's release note; `extra`: one more key
    of the jury."""
    suite = tmp_path / "jury.yml"
    suite.write_text(HEAD + f"""tools:
  - name: note
    server: ex
    tool: release_note
    args: {{service: billing, tag: v1}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: Is it a deployment note?
            jurors: [{{model: juror-a}}, {{model: juror-b}}, {{model: juror-c}}]
            {extra}
""", encoding="utf-8")
    return suite


def test_a_jury_is_measured_per_juror_and_the_juror_that_lowers_agreement_is_named(
        tmp_path: Path, js: JudgeServer, gateway: dict[str, str],
        capsys: pytest.CaptureFixture[str]) -> None:
    suite = _jury_suite(tmp_path, "quorum: 0.6")
    wrong = {"juror-a": set(), "juror-b": {10, 11}, "juror-c": {10, 11, 12, 13, 14, 15}}
    lines = []
    for i in range(20):
        human_pass = i < 10
        for model, misses in wrong.items():
            passes = human_pass != (i in misses)
            js.script(model, Verdict(score=0.9 if passes else 0.1), candidate=f"#J{i:02d}#")
        lines.append(json.dumps({"candidate": f"#J{i:02d}#",
                                 "human": "pass" if human_pass else "fail"}))
    labels = tmp_path / "jury.jsonl"
    labels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "jury.calibration.json"
    assert main(["calibrate", str(suite), "--labels", str(labels), "--out", str(out),
                 "--no-cache"]) == 0
    record = json.loads(out.read_text())
    jurors = record["jurors"]
    assert jurors["juror-a"]["kappa"] == 1.0
    assert jurors["juror-c"]["false_pass"]["rate"] == pytest.approx(0.6)
    assert record["verdict"]["false_pass"]["hits"] == 2  # labels 10 and 11: B and C outvote A
    assert "juror-c" in record["lowers_agreement"]
    assert "juror-a" not in record["lowers_agreement"]
    assert record["panel_alpha"] is not None
    printed = capsys.readouterr().out
    assert "⚠ juror `juror-c` lowers the jury's agreement" in printed


def test_an_eval_is_calibrated_and_gated_like_an_assertion(
        tmp_path: Path, js: JudgeServer, gateway: dict[str, str]) -> None:
    suite = tmp_path / "evals.yml"
    suite.write_text("""judge: {model: eval-judge}
evals:
  - name: note quality
    prompt: Write a deployment note for billing v2.4.1.
    response: "#RUN# Deployed billing v2.4.1."
    rubric: Pass if it is a deployment note with a rollback step.
    calibration: {file: eval.calibration.json, min_labels: 4, min_agreement: 0.5}
""", encoding="utf-8")
    js.script("eval-judge", Verdict(score=0.2, reason="no rollback"), candidate="#RUN#")
    labels = tmp_path / "labels.jsonl"
    rows = []
    for i, human in enumerate(["pass", "pass", "fail", "fail"]):
        js.script("eval-judge", Verdict(score=0.9 if human == "pass" else 0.1),
                  candidate=f"#E{i}#")
        rows.append(json.dumps({"candidate": f"#E{i}#", "human": human}))
    labels.write_text("\n".join(rows) + "\n", encoding="utf-8")

    def run(require: bool = False) -> dict:
        env = dict(os.environ)
        plan = build_plan(load_suites([suite], env=env), tools=False, evals=True)
        judge = JudgeOptions(env=env, require_calibration=require, max_tries=1)
        report = run_plan(plan, RunOptions(judge=judge, handle_signals=False)).report
        return json.loads(report.model_dump_json())

    row = run()["tests"][0]
    assert row["status"] == "deferred" and row["calibration"]["state"] == "missing"
    assert row["calibration"]["advisory"] is True and row["gap"] is None
    row = run(require=True)["tests"][0]
    assert row["status"] == "failed" and row["gap"] == "judge-calibration"
    assert main(["calibrate", str(suite), "--labels", str(labels), "--no-cache"]) == 0
    record = json.loads((tmp_path / "eval.calibration.json").read_text())
    assert record["identity"]["kind"] == "eval" and record["verdict"]["kappa"] == 1.0
    report = run()
    row = report["tests"][0]
    assert row["status"] == "failed" and row["calibration"]["state"] == "calibrated"
    assert row["gap"] == "judgment" and report["summary"]["uncalibrated"] == 0


@pytest.mark.parametrize(("gate", "state"), [("estimate", "calibrated"),
                                             ("lower_bound", "below-floor")])
def test_the_floor_can_hold_the_lower_bound_of_kappa(
        tmp_path: Path, example: Path, js: JudgeServer, gateway: dict[str, str], gate: str,
        state: str) -> None:
    """Issue 26, problem 3: kappa 0.75 on 50 labels clears a 0.6 floor as a point estimate, but
    its 95% interval reaches well below it; `min_agreement_on: lower_bound` holds the floor
    against that lower end, and the record, the terminal and the run show the interval."""
    suite = example / "mcptest.yml"
    suite.write_text(suite.read_text().replace(
        "min_labels: 20", f"min_labels: 20\n              min_agreement_on: {gate}"),
        encoding="utf-8")
    labels = _synthetic(tmp_path, js, {1, 2, 3, 31, 32, 33})  # 3 false fails, 3 false passes
    run = mcptest("calibrate", suite, "--labels", labels, "--out",
                  example / "release-note.calibration.json", "--no-cache",
                  env=js.gateway_env())
    assert run.returncode == 0, run.stderr
    v = json.loads((example / "release-note.calibration.json").read_text())["verdict"]
    assert v["kappa"] == pytest.approx(0.75)
    low, high = v["kappa_ci95"]["low"], v["kappa_ci95"]["high"]
    assert low < 0.6 < 0.75 < high <= 1.0
    assert 0 < v["kappa_below_floor"] < 0.5  # resamples below the suite's 0.6 floor
    assert v["accuracy_ci95"]["low"] < 44 / 50 < v["accuracy_ci95"]["high"]
    assert f"0.750 [{low:.3f}, {high:.3f}]" in run.stdout
    js.script("release-judge", Verdict(score=0.9), candidate=SERVER_OUTPUT)
    _, report = _report(example, js)
    note = report["tests"][0]["assertions"][0]["calibration"]
    assert note["state"] == state and note["kappa_ci95"]["low"] == low
    if gate == "lower_bound":
        assert "lower end of its 95% interval" in note["reason"]


def test_near_duplicate_jurors_are_flagged_in_the_record_and_the_comment(
        tmp_path: Path, js: JudgeServer, gateway: dict[str, str]) -> None:
    """Issue 26, problem 4: juror-b makes exactly juror-a's mistakes. The record names the pair,
    gives their error correlation and what the jury is worth, and a run gated by the record
    carries the warning into the PR comment."""
    suite = _jury_suite(tmp_path, "calibration: {file: jury.calibration.json, "
                                  "min_labels: 20, min_agreement: 0.3}")
    wrong = {"juror-a": {0, 5, 10, 15, 20, 25, 30, 35}, "juror-b": {0, 5, 10, 15, 20, 25, 30, 35},
             "juror-c": {2, 13, 27, 38}}
    lines = []
    for i in range(40):
        human_pass = i % 2 == 0
        for model, misses in wrong.items():
            passes = human_pass != (i in misses)
            js.script(model, Verdict(score=0.9 if passes else 0.1), candidate=f"#D{i:02d}#")
        lines.append(json.dumps({"candidate": f"#D{i:02d}#",
                                 "human": "pass" if human_pass else "fail"}))
    labels = tmp_path / "jury.jsonl"
    labels.write_text("\n".join(lines) + "\n", encoding="utf-8")
    run = mcptest("calibrate", suite, "--labels", labels, "--no-cache", env=js.gateway_env())
    assert run.returncode == 0, run.stderr
    record = json.loads((tmp_path / "jury.calibration.json").read_text())
    pairs = {tuple(p["jurors"]): p for p in record["error_correlation"]}
    assert pairs[("juror-a", "juror-b")]["correlation"] == 1.0
    assert pairs[("juror-a", "juror-b")]["both_wrong"] == 8
    assert abs(pairs[("juror-a", "juror-c")]["correlation"]) < 0.3
    assert record["effective_jurors"] == pytest.approx(1.8, abs=0.05)
    assert len(record["warnings"]) == 1
    assert "jurors juror-a and juror-b err together" in record["warnings"][0]
    assert "⚠ jurors juror-a and juror-b err together" in run.stdout
    assert "Effective number of independent jurors: 1.8" in run.stdout
    for model in wrong:
        js.script(model, Verdict(score=0.9))
    out = tmp_path / "run.md"
    done = mcptest("run", suite, "--no-cache", "--reporter", "md", "--output", out,
                   env=js.gateway_env())
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    comment = out.read_text(encoding="utf-8")
    assert "calibration record jury.calibration.json" in comment  # its colon is escaped
    assert "jurors juror-a and juror-b err together" in comment
    report = json.loads(mcptest("run", suite, "--no-cache", "--reporter", "json",
                                env=js.gateway_env()).stdout)
    note = report["tests"][0]["assertions"][0]["calibration"]
    assert note["effective_jurors"] == record["effective_jurors"] and note["warnings"]
