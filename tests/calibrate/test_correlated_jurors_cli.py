"""Issue 35, item 7: every jury says on how many effective jurors its band rests, and jurors
whose errors correlate at the issue's 0.58 are warned about (the warning used to start at 0.7).

A three-juror jury grades 12 answers (a case table through the example server's `greet`, which
echoes them) after `calibrate` measured it on 60 labels. Juror-a and juror-b are wrong on 12
labels each, 8 of them the same (error correlation 0.583); in the independent variant they share
2, as juror-c does with either (`CORRELATED`, `INDEPENDENT`). The judges are the loopback judge server, scripted per answer.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # the example server, three runs of the CLI

JURORS = ("juror-a", "juror-b", "juror-c")
CORRELATED = {"juror-a": set(range(0, 12)), "juror-b": set(range(4, 16)),
              "juror-c": {0, 1, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29}}
INDEPENDENT = {"juror-a": set(range(0, 12)), "juror-b": {0, 1, *range(30, 40)},
               "juror-c": {2, 3, 30, 31, 42, 43, 44, 45, 46, 47, 48, 49}}
"""Labels each juror gets wrong (of 60, 12 each): a and b share 8 (phi (60·8 − 144)/576 = 0.583)
or 2 (−0.04); c shares 2 with a and none with b (−0.04, −0.25), or 2 with each. Negative ones
count as 0, so ρ̄ is 0.583/3 and the jury is worth 3/(1 + 2·0.194) = 2.16 jurors, or 3."""


@pytest.fixture
def js() -> Iterator[JudgeServer]:
    with JudgeServer() as server:
        yield server


def _suite(folder: Path, calibrated: bool, answers: int) -> Path:
    calibration = ("\n            calibration: {file: jury.calibration.json, min_labels: 20, "
                   "min_agreement: 0.3}" if calibrated else "")
    (folder / "answers.jsonl").write_text("".join(
        json.dumps({"name": f"r{i}", "candidate": f"#R{i:02d}#"}) + "\n"
        for i in range(answers)), encoding="utf-8")
    suite = folder / "jury.yml"
    suite.write_text(HEAD + f"""tools:
  - name: answer
    server: ex
    tool: greet
    args: {{ name: "${{candidate}}" }}
    cases: {{ file: answers.jsonl }}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: Is it a greeting?
            jurors: [{{model: juror-a}}, {{model: juror-b}}, {{model: juror-c}}]
            quorum: 0.5{calibration}
""", encoding="utf-8")
    return suite


def _calibrate(folder: Path, js: JudgeServer, wrong: dict[str, set[int]]) -> dict:
    lines = []
    for i in range(60):
        human = i % 2 == 0
        for model in JURORS:
            passes = human != (i in wrong[model])
            js.script(model, Verdict(score=0.9 if passes else 0.1), candidate=f"#L{i:02d}#")
        lines.append(json.dumps({"candidate": f"Hello, #L{i:02d}#!",
                                 "human": "pass" if human else "fail"}))
    (folder / "labels.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = cli("calibrate", folder / "jury.yml", "--labels", folder / "labels.jsonl",
               "--no-cache", cwd=folder, env={**js.gateway_env(), "MCPTEST_PYTHON":
                                              sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads((folder / "jury.calibration.json").read_text(encoding="utf-8"))


def _run(folder: Path, js: JudgeServer) -> tuple[int, str, dict, str]:
    """The run in the terminal, JSON and markdown: (exit code, stdout, report, comment)."""
    out = {k: folder / f"out.{k}" for k in ("json", "md", "html")}
    done = cli("run", folder / "jury.yml", "--no-cache", "--reporter", "pretty",
               *(x for k, p in out.items() for x in ("--reporter", k, "--output", str(p))),
               cwd=folder, env={**js.gateway_env(), "MCPTEST_PYTHON": sys.executable})
    assert out["json"].is_file(), done.stdout + done.stderr
    return (done.returncode, done.stdout, json.loads(out["json"].read_text(encoding="utf-8")),
            out["md"].read_text(encoding="utf-8") + out["html"].read_text(encoding="utf-8"))


def _juries(report: dict) -> list[dict]:
    return [a["judge"]["jury"] for t in report["tests"] for a in t["assertions"]]


def _script_run(js: JudgeServer, answers: int) -> None:
    """Answers r0…: juror-a and juror-b vote alike on every answer, juror-c on its own."""
    for i in range(answers):
        ab = i % 3 != 0
        js.script("juror-a", Verdict(score=0.9 if ab else 0.1), candidate=f"#R{i:02d}#")
        js.script("juror-b", Verdict(score=0.9 if ab else 0.1), candidate=f"#R{i:02d}#")
        js.script("juror-c", Verdict(score=0.9 if i % 2 else 0.1), candidate=f"#R{i:02d}#")


def test_correlated_jurors_warn_and_every_band_says_what_it_rests_on(
        tmp_path: Path, js: JudgeServer) -> None:
    _suite(tmp_path, calibrated=True, answers=12)
    record = _calibrate(tmp_path, js, CORRELATED)
    pairs = {tuple(p["jurors"]): p["correlation"] for p in record["error_correlation"]}
    assert pairs[("juror-a", "juror-b")] == pytest.approx(0.583, abs=1e-3)
    assert record["effective_jurors"] == pytest.approx(2.16, abs=0.005)
    assert len(record["warnings"]) == 1
    assert "jurors juror-a and juror-b err together" in record["warnings"][0]

    _script_run(js, 12)
    code, stdout, report, shown = _run(tmp_path, js)
    assert code in (ExitCode.OK, ExitCode.TESTS_FAILED), stdout
    juries = _juries(report)
    assert len(juries) == 12
    for jury in juries:
        e = jury["effective_jurors"]
        assert (e["basis"], e["jurors"], e["items"]) == ("labels", 3, 60)
        assert e["value"] == record["effective_jurors"]
    words = f"rests on {record['effective_jurors']:.1f} effective jurors of 3 (errors on 60 labels)"
    assert stdout.count(words) == 12  # the terminal's line of every jury
    assert words in shown  # the comment's and the HTML's
    assert "calibration record jury.calibration.json: jurors juror-a and juror-b err together" \
        in "\n".join(report["warnings"])
    assert "jurors juror-a and juror-b err together" in stdout
    detail = report["summary"]["run_agreement_detail"]
    assert (detail["jurors"], detail["effective_jurors"]) == (3, record["effective_jurors"])
    assert f"rests on {record['effective_jurors']:.1f} effective jurors of 3)" in stdout


def test_independent_jurors_do_not_warn(tmp_path: Path, js: JudgeServer) -> None:
    _suite(tmp_path, calibrated=True, answers=12)
    record = _calibrate(tmp_path, js, INDEPENDENT)
    assert record["warnings"] == [] and record["effective_jurors"] == 3
    _script_run(js, 12)
    _, stdout, report, _ = _run(tmp_path, js)
    assert not any("err together" in w for w in report["warnings"])
    assert "err together" not in stdout
    assert stdout.count("rests on 3.0 effective jurors of 3 (errors on 60 labels)") == 12


def test_without_labels_the_votes_say_it_and_too_few_juries_say_so(
        tmp_path: Path, js: JudgeServer) -> None:
    """No record: the run's own votes. Juror-a and juror-b vote alike on all 12 answers and
    juror-c on its own (pass on odd answers): their votes correlate 1, 0 and 0, so ρ̄ is 1/3
    and the jury rests on 3/(1 + 2/3) = 1.8 jurors; on 4 answers there is too little to tell,
    and the band says so."""
    _suite(tmp_path, calibrated=False, answers=12)
    _script_run(js, 12)
    _, stdout, report, shown = _run(tmp_path, js)
    e = _juries(report)[0]["effective_jurors"]
    assert (e["basis"], e["jurors"], e["items"], e["note"]) == ("votes", 3, 12, None)
    assert e["value"] == 1.8 and e["mean_correlation"] == pytest.approx(1 / 3, abs=1e-6)
    words = f"rests on {e['value']:.1f} effective jurors of 3 (votes over 12 juries)"
    assert words in stdout and words in shown
    assert "err together" not in stdout  # votes alone cannot tell errors from being right

    _suite(tmp_path, calibrated=False, answers=4)
    _, stdout, report, _ = _run(tmp_path, js)
    e = _juries(report)[0]["effective_jurors"]
    assert e["value"] is None and e["items"] == 4
    assert "effective jurors of 3 not estimated: 4 juries of these jurors in the run, 10 " \
        "needed" in stdout


def test_merged_shards_estimate_it_over_every_shard_s_juries(
        tmp_path: Path, js: JudgeServer) -> None:
    """Two shards of the 12 answers each hold too few juries to estimate; `mcptest merge`
    estimates it over all 12 and gets the unsharded run's 1.8."""
    _suite(tmp_path, calibrated=False, answers=12)
    _script_run(js, 12)
    env = {**js.gateway_env(), "MCPTEST_PYTHON": sys.executable}
    outs = []
    for i in (1, 2):
        out = tmp_path / f"shard{i}.json"
        cli("run", tmp_path / "jury.yml", "--no-cache", "--shard", f"{i}/2", "--reporter",
            "json", "--output", out, cwd=tmp_path, env=env)
        e = _juries(json.loads(out.read_text(encoding="utf-8")))[0]["effective_jurors"]
        assert e["value"] is None and e["items"] < 10
        outs.append(out)
    merged = tmp_path / "merged.json"
    done = cli("merge", *outs, "--output", merged, "--format", "json", cwd=tmp_path)
    assert merged.is_file(), done.stderr
    report = json.loads(merged.read_text(encoding="utf-8"))
    assert {(j["effective_jurors"]["value"], j["effective_jurors"]["items"])
            for j in _juries(report)} == {(1.8, 12)}
    assert report["summary"]["run_agreement_detail"]["effective_jurors"] == 1.8
