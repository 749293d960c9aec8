"""Verdict modes of an `llm-jury` (issue 11, item 6; docs/jury.md, "Verdict modes"), through the
CLI against the loopback judge server: labels with and without `passing_labels`, numeric mean
against median, repetitions reduced by plurality, the load errors, and the request body."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import krippendorff
import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server and the CLI


def _suite(tmp_path: Path, jury: str, name: str = "jury.yml") -> Path:
    path = tmp_path / name
    path.write_text(HEAD + f"""tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Rate the tone of the greeting."
{jury}""", encoding="utf-8")
    return path


LABELED = """            verdict_kind: categorical
            labels: [rude, neutral, friendly]
            jurors: [{model: j-a}, {model: j-b}, {model: j-c}]
"""


def _labels(js: JudgeServer, *labels: str) -> None:
    for model, label in zip(("j-a", "j-b", "j-c"), labels, strict=True):
        js.script(model, Verdict(score=None, label=label))


def _assertion(rep: dict[str, Any]) -> dict[str, Any]:
    a: dict[str, Any] = rep["tests"][0]["assertions"][0]
    return a


def test_a_labeled_jury_passes_on_a_passing_plurality_label(tmp_path: Path,
                                                           js: JudgeServer) -> None:
    _labels(js, "friendly", "friendly", "rude")
    path = _suite(tmp_path, LABELED + "            passing_labels: [neutral, friendly]\n")
    r, rep = run_json(path, env=js.gateway_env())
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    a = _assertion(rep)
    assert a["status"] == "passed"
    judge = a["judge"]
    assert (judge["verdict_kind"], judge["verdict"], judge["passed"]) == (
        "labeled", "friendly", True)
    assert judge["tally"] == {"friendly": 2.0, "rude": 1.0}
    assert [v["label"] for v in judge["votes"]] == ["friendly", "friendly", "rude"]
    assert "plurality label `friendly` is a passing label" in a["message"]
    # the prompt lists the labels and asks for one of them
    prompt = js.requests("j-a")[0]["messages"][-1]["content"]
    assert '"label": <exactly one of "rude", "neutral", "friendly">' in prompt


def test_a_labeled_jury_fails_on_a_plurality_label_that_does_not_pass(
        tmp_path: Path, js: JudgeServer) -> None:
    _labels(js, "rude", "friendly", "rude")
    path = _suite(tmp_path, LABELED + "            passing_labels: [neutral, friendly]\n")
    r, rep = run_json(path, env=js.gateway_env())
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    a = _assertion(rep)
    assert (a["status"], a["judge"]["verdict"], a["judge"]["passed"]) == (
        "failed", "rude", False)
    assert "`rude` is not a passing label" in a["message"]


def test_without_passing_labels_the_label_is_kept_and_passed_is_unknown(
        tmp_path: Path, js: JudgeServer) -> None:
    _labels(js, "neutral", "neutral", "friendly")
    path = _suite(tmp_path, LABELED)
    r, rep = run_json(path, env=js.gateway_env())
    assert r.returncode == ExitCode.INCOMPLETE, r.stdout + r.stderr
    a = _assertion(rep)
    assert a["status"] == "skipped"
    assert a["judge"]["verdict"] == "neutral"
    assert a["judge"]["passed"] is None
    assert a["judge"]["jury"]["verdict"] == "unknown"
    assert a["message"].startswith("unknown: plurality label `neutral`")
    line = "labeled verdict neutral (plurality neutral 2, friendly 1) · passed unknown"
    assert line in r.stdout
    assert "? j-a (unknown)" not in r.stdout and "? j-a: neutral" in r.stdout
    for fmt in ("md", "html"):
        shown = cli("report", tmp_path / "jury.json", "--format", fmt)
        assert line in shown.stdout, shown.stdout
        assert "❔ unknown" in shown.stdout
        assert "✅" not in shown.stdout.split(line, 1)[1].split("friendly", 1)[0]


@pytest.mark.parametrize(("how", "status", "shown"), [
    ("mean", "failed", "panel mean 0.6 < threshold 0.7"),
    ("median", "passed", "panel median 0.8 ≥ threshold 0.7"),
])
def test_numeric_mean_and_median_give_different_verdicts(
        tmp_path: Path, js: JudgeServer, how: str, status: str, shown: str) -> None:
    for model, score in (("j-a", 0.8), ("j-b", 0.9), ("j-c", 0.1)):
        js.script(model, Verdict(score=score))
    path = _suite(tmp_path, f"""            verdict_kind: numeric
            aggregate: {how}
            threshold: 0.7
            jurors: [{{model: j-a}}, {{model: j-b}}, {{model: j-c}}]
""")
    _, rep = run_json(path, env=js.gateway_env())
    a = _assertion(rep)
    assert a["status"] == status, a["message"]
    assert shown in a["message"]
    assert a["judge"]["verdict_kind"] == "numeric"
    assert a["judge"]["aggregate"] == how


def test_a_numeric_score_range_is_read_in_its_own_units(tmp_path: Path,
                                                        js: JudgeServer) -> None:
    for model, score in (("j-a", 4), ("j-b", 5), ("j-c", 2)):
        js.script(model, Verdict(score=score))
    path = _suite(tmp_path, """            verdict_kind: numeric
            score_range: [1, 5]
            threshold: 3.5
            jurors: [{model: j-a}, {model: j-b}, {model: j-c}]
""")
    _, rep = run_json(path, env=js.gateway_env())
    a = _assertion(rep)
    assert a["status"] == "passed", a["message"]
    assert a["judge"]["verdict"] == "3.66667"
    assert [v["value"] for v in a["judge"]["votes"]] == [4, 5, 2]
    assert a["judge"]["score"] == pytest.approx((11 / 3 - 1) / 4)


def test_repetitions_are_reduced_by_plurality_before_the_panel_votes(
        tmp_path: Path, js: JudgeServer) -> None:
    # j-a says rude once out of three, j-b friendly twice out of three, j-c rude throughout:
    # per juror friendly, friendly, rude; pooled answers would be 5 rude against 4 friendly.
    js.script("j-a", [Verdict(score=None, label=x) for x in ("friendly", "rude", "friendly")])
    js.script("j-b", [Verdict(score=None, label=x) for x in ("rude", "friendly", "friendly")])
    js.script("j-c", Verdict(score=None, label="rude"))
    path = _suite(tmp_path, LABELED + """            passing_labels: [friendly]
            repetitions: 3
""")
    _, rep = run_json(path, env=js.gateway_env())
    a = _assertion(rep)
    assert a["status"] == "passed", a["message"]
    assert a["judge"]["tally"] == {"friendly": 2.0, "rude": 1.0}
    assert len(a["judge"]["votes"]) == 9
    # labels are nominal: alpha over the three rounds is the package's nominal alpha, and the
    # run's label agreement (one labeled jury) is that jury's. The repetitions of a juror run
    # at once, so which round drew which scripted label is read back from the votes.
    code = {"friendly": 0, "rude": 1}
    rounds = {(v["model"], v["repetition"]): code[v["label"]] for v in a["judge"]["votes"]}
    codes = [[rounds[(m, k)] for k in range(3)] for m in ("j-a", "j-b", "j-c")]
    assert sorted(map(sorted, codes)) == [[0, 0, 1], [0, 0, 1], [1, 1, 1]]
    want = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal")
    assert a["judge"]["jury"]["answers_raw"] == pytest.approx(want, abs=1e-9)
    # the votes (friendly passes, rude fails) split 2–1: 1 − 12·(1/3) = −3, the lower
    assert a["judge"]["jury"]["votes_raw"] == pytest.approx(-3.0)
    assert a["judge"]["jury"]["agreement_raw"] == pytest.approx(-3.0)
    assert rep["summary"]["run_agreement_labels"] == pytest.approx(want, abs=1e-9)
    assert rep["summary"]["run_agreement"] is None  # labels are not read as numbers


def test_a_label_outside_the_list_is_a_mechanical_failure_and_is_replaced(
        tmp_path: Path, js: JudgeServer) -> None:
    _labels(js, "friendly", "rude", "rude")
    js.script("j-b", Verdict(score=None, label="ecstatic"))
    js.script("j-r", Verdict(score=None, label="friendly"))
    path = _suite(tmp_path, LABELED + """            passing_labels: [friendly]
            replacements: [{model: j-r}]
""")
    _, rep = run_json(path, env=js.gateway_env())
    a = _assertion(rep)
    assert a["status"] == "passed", a["message"]
    assert a["judge"]["tally"] == {"friendly": 2.0, "rude": 1.0}
    assert js.count("j-b") == 2  # the answer, then the stricter retry
    stand_in = [v for v in a["judge"]["votes"] if v["replacement_for"] == "j-b"]
    assert stand_in and stand_in[0]["label"] == "friendly"


def test_a_boolean_jury_takes_the_plurality_of_pass_and_fail(tmp_path: Path,
                                                            js: JudgeServer) -> None:
    for model, ok in (("j-a", True), ("j-b", False), ("j-c", False)):
        js.script(model, Verdict(score=None, passed=ok))
    path = _suite(tmp_path, """            verdict_kind: categorical
            jurors: [{model: j-a}, {model: j-b}, {model: j-c}]
""")
    _, rep = run_json(path, env=js.gateway_env())
    a = _assertion(rep)
    assert (a["status"], a["judge"]["verdict_kind"], a["judge"]["verdict"]) == (
        "failed", "boolean", "fail")
    assert a["message"].startswith("plurality fail (fail 2, pass 1)")


@pytest.mark.parametrize(("jury", "where", "says"), [
    ("""            verdict_kind: numeric
            labels: [a, b]
            jurors: [{model: j-a}]
""", "15:21", "`labels` needs `verdict_kind: categorical`"),
    ("""            verdict_kind: categorical
            labels: [rude, friendly]
            passing_labels: [kind]
            jurors: [{model: j-a}]
""", "16:29", "`passing_labels` must be a subset of `labels`: 'kind'"),
    ("""            verdict_kind: numeric
            quorum: 0.6
            jurors: [{model: j-a}]
""", "15:21", "`quorum` has no meaning with `verdict_kind: numeric`"),
])
def test_keys_that_do_not_fit_the_mode_are_load_errors(tmp_path: Path, jury: str, where: str,
                                                       says: str) -> None:
    path = _suite(tmp_path, jury)
    r = cli("validate", path)
    assert r.returncode == ExitCode.USAGE_ERROR
    assert f"{path}:{where}" in r.stderr, r.stderr
    assert says in r.stderr


@pytest.mark.parametrize("route", ["auto", "litellm"])
def test_structured_output_sends_the_mode_schema_and_falls_back_to_json_object(
        tmp_path: Path, js: JudgeServer, route: str) -> None:
    # gpt-4o through the OpenAI route supports json_schema: the labeled schema goes out; a
    # 400 refusing the schema then makes the same request go out once more as json_object.
    js.script("gpt-4o", [Fault.rejected("Invalid schema for response_format 'verdict'"),
                         Verdict(score=None, label="friendly")])
    path = _suite(tmp_path, """            verdict_kind: categorical
            labels: [rude, friendly]
            passing_labels: [friendly]
            jurors: [{model: gpt-4o}]
""")
    env = {"OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": js.base_url,
           "MCPTEST_LLM_ROUTE": route}  # the fast httpx route, then litellm
    r, rep = run_json(path, env=env)
    assert _assertion(rep)["status"] == "passed", r.stdout + r.stderr
    first, second = (b["response_format"] for b in js.requests("gpt-4o"))
    assert first["type"] == "json_schema"
    schema = first["json_schema"]["schema"]
    assert schema["properties"]["label"] == {"type": "string", "enum": ["rude", "friendly"]}
    assert schema["required"] == ["label", "reason", "evidence", "abstain"]
    assert second == {"type": "json_object"}


def test_structured_output_false_sends_the_schema_in_the_prompt_only(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script("j-a", Verdict(score=0.9))
    path = _suite(tmp_path, """            verdict_kind: numeric
            score_range: [0, 10]
            threshold: 5
            jurors: [{model: j-a}]
""")
    path.write_text("judge: {structured_output: false}\n" + path.read_text(), encoding="utf-8")
    r, rep = run_json(path, env=js.gateway_env())
    assert _assertion(rep)["status"] == "failed", r.stdout + r.stderr
    body = js.requests("j-a")[0]
    assert "response_format" not in body
    assert '{"score": <number from 0 to 10>' in body["messages"][-1]["content"]


def test_a_same_family_replacement_warns_and_strict_panel_refuses_it(tmp_path: Path) -> None:
    body = """servers:
  time: {{command: [python, server.py]}}
agents:
  - name: tells time
    models: [openai/gpt-4o]
    servers: [time]
    prompt: What time is it in Tokyo?
    expect:
      - target: final
        matcher:
          llm-jury:
            rubric: Gives a time for Tokyo
            jurors: [{{model: anthropic/claude-sonnet-4-5}}]
            replacements: [{{model: gpt-4o-mini}}]{strict}
"""
    loose = tmp_path / "loose.yml"
    loose.write_text(body.format(strict=""), encoding="utf-8")
    v = cli("validate", loose)
    assert v.returncode == ExitCode.OK, v.stderr
    assert (f"warning: {loose}:14:36: agents[0].expect[0].matcher.llm-jury.replacements[0]"
            ".model: judge `gpt-4o-mini` is from the openai family") in v.stderr
    strict = tmp_path / "strict.yml"
    strict.write_text(body.format(strict="\n            strict_panel: true"), encoding="utf-8")
    s = cli("validate", strict)
    assert s.returncode == ExitCode.USAGE_ERROR
    assert (f"{strict}:14:36: agents[0].expect[0].matcher.llm-jury.replacements[0].model: "
            "juror `gpt-4o-mini` is from the openai family") in s.stderr


def _eval(tmp_path: Path, judge: str) -> Path:
    path = tmp_path / "evals.yml"
    path.write_text(f"""evals:
  - name: tone of a reply
    prompt: "Say hello."
    response: "Hello there, lovely to see you!"
    rubric: "Rate the tone of the reply."
    judge: {{{judge}}}
""", encoding="utf-8")
    return path


@pytest.mark.parametrize(("passing", "code", "status", "passed"), [
    (", passing_labels: [neutral, friendly]", ExitCode.OK, "passed", True),
    (", passing_labels: [neutral]", ExitCode.TESTS_FAILED, "failed", False),
    ("", ExitCode.INCOMPLETE, "skipped", None),
])
def test_an_eval_panel_takes_the_plurality_label(tmp_path: Path, js: JudgeServer, passing: str,
                                                  code: int, status: str,
                                                  passed: bool | None) -> None:
    _labels(js, "friendly", "rude", "friendly")
    path = _eval(tmp_path, "verdict_kind: categorical, labels: [rude, neutral, friendly], "
                           "panel: [j-a, j-b, j-c]" + passing)
    out = tmp_path / "evals.json"
    r = cli("eval", path, "--no-cache", "--reporter", "pretty", "--reporter", "json",
                "--output", out, env=js.gateway_env())
    assert r.returncode == code, r.stdout + r.stderr
    row = json.loads(out.read_text())["tests"][0]
    assert row["status"] == status, row["message"]
    judge = row["judge"]
    assert (judge["verdict_kind"], judge["verdict"], judge["passed"]) == (
        "labeled", "friendly", passed)
    assert judge["tally"] == {"friendly": 2.0, "rude": 1.0}
    shown = "passed unknown" if passed is None else "passes" if passed else "fails"
    assert f"labeled verdict friendly (plurality friendly 2, rude 1) · {shown}" in r.stdout


def test_a_boolean_categorical_eval_panel_reports_its_mode_and_majority(
        tmp_path: Path, js: JudgeServer) -> None:
    """Without labels each member says pass or fail and the majority decides; the report says
    so as an `llm-jury` does (it carried no `verdict_kind` before)."""
    for model, score in (("j-a", 0.9), ("j-b", 0.1), ("j-c", 0.8)):
        js.script(model, Verdict(score=score))
    path = _eval(tmp_path, "verdict_kind: categorical, panel: [j-a, j-b, j-c]")
    out = tmp_path / "evals.json"
    r = cli("eval", path, "--no-cache", "--reporter", "json", "--output", out,
                env=js.gateway_env())
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    judge = json.loads(out.read_text())["tests"][0]["judge"]
    assert (judge["verdict_kind"], judge["aggregate"], judge["verdict"], judge["passed"]) == (
        "boolean", "majority", "pass", True)


def test_eval_keys_that_do_not_fit_the_mode_are_load_errors(tmp_path: Path) -> None:
    path = _eval(tmp_path, "verdict_kind: numeric, aggregate: majority, panel: [j-a, j-b]")
    r = cli("validate", path)
    assert r.returncode == ExitCode.USAGE_ERROR
    assert f"{path}:6:" in r.stderr and "evals[0].judge.aggregate" in r.stderr, r.stderr
    assert "with `verdict_kind: numeric` use mean or median" in r.stderr


@pytest.mark.parametrize(("unreachable", "status"), [(1, "passed"), (2, "deferred")])
def test_a_labeled_jury_with_unreachable_jurors_waits_only_when_they_could_change_it(
        tmp_path: Path, js: JudgeServer, unreachable: int, status: str) -> None:
    js.script("j-a", Verdict(score=None, label="friendly"))
    js.script("j-b", Verdict(score=None, label="friendly"))
    keyless = ", ".join(["{model: claude-sonnet-4-5}"] * unreachable)  # no ANTHROPIC_API_KEY
    path = _suite(tmp_path, f"""            verdict_kind: categorical
            labels: [rude, friendly]
            passing_labels: [friendly]
            jurors: [{{model: j-a, base_url: "{js.base_url}"}},
                     {{model: j-b, base_url: "{js.base_url}"}}, {keyless}]
""")
    _, rep = run_json(path)
    a = _assertion(rep)
    assert a["status"] == status, a["message"]
    # two friendly against one missing answer cannot lose; against two they could tie
    assert ("no answer of theirs could change it" in a["message"]) == (status == "passed")


@pytest.mark.parametrize(("scores", "range_", "threshold", "how", "status"), [
    ((0.9, 0.8), "", 0.3, "mean", "passed"),      # 0.9, 0.8, 0 → mean 0.57 ≥ 0.3
    ((5, 4), "            score_range: [1, 5]\n", 1.5, "mean", "passed"),
    ((5, 4), "            score_range: [1, 5]\n", 2, "median", "passed"),
    ((0.9, 0.2), "", 0.5, "mean", "deferred"),    # 0.37 or 0.7: the missing one decides
])
def test_a_numeric_jury_with_a_deferred_juror_waits_only_when_pass_or_fail_could_change(
        tmp_path: Path, js: JudgeServer, scores: tuple[float, float], range_: str,
        threshold: float, how: str, status: str) -> None:
    js.script("j-a", Verdict(score=scores[0]))
    js.script("j-b", Verdict(score=scores[1]))
    path = _suite(tmp_path, f"""            verdict_kind: numeric
{range_}            threshold: {threshold}
            aggregate: {how}
            jurors: [{{model: j-a, base_url: "{js.base_url}"}},
                     {{model: j-b, base_url: "{js.base_url}"}}, {{model: claude-sonnet-4-5}}]
""")
    _, rep = run_json(path)
    a = _assertion(rep)
    assert a["status"] == status, a["message"]
    assert ("no answer of theirs could change it" in a["message"]) == (status == "passed")


@pytest.mark.parametrize("kind", ["", "verdict_kind: numeric, "])
def test_an_eval_panel_reports_the_statistic_its_verdict_was_decided_on(
        tmp_path: Path, js: JudgeServer, kind: str) -> None:
    for model, score in (("j-a", 0.8), ("j-b", 0.9), ("j-c", 0.1)):
        js.script(model, Verdict(score=score))
    path = _eval(tmp_path, f"{kind}aggregate: median, panel: [j-a, j-b, j-c]")
    out = tmp_path / "evals.json"
    r = cli("eval", path, "--no-cache", "--reporter", "pretty", "--reporter", "json",
                "--output", out, env=js.gateway_env())
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    row = json.loads(out.read_text())["tests"][0]
    judge = row["judge"]
    assert judge["score"] == pytest.approx(0.8)  # the median, not the mean 0.60
    assert judge["aggregate"] == "median"
    assert "panel median 0.80 ≥ threshold" in row["message"]
    assert "score 0.80" in r.stdout and "score 0.60" not in r.stdout
    if kind:
        assert (judge["verdict_kind"], judge["verdict"], judge["passed"]) == (
            "numeric", "0.8", True)


def test_the_markdown_juror_table_escapes_labels_and_says_when_no_juror_decided(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script("j-a", Verdict(score=None, label="|pipe|`tick`"))
    js.script("j-b", Fault.server_error(400))
    path = tmp_path / "jury.yml"
    path.write_text(HEAD + """tools:
  - name: markup label
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Tone"
            verdict_kind: categorical
            labels: ["<img src=x>", "|pipe|`tick`"]
            passing_labels: ["|pipe|`tick`"]
            jurors: [{model: j-a}]
  - name: nobody decided
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Tone"
            verdict_kind: categorical
            labels: [good, bad]
            passing_labels: [good]
            jurors: [{model: j-b}]
""", encoding="utf-8")
    out = tmp_path / "out.md"
    r = cli("run", path, "--no-cache", "--reporter", "pretty", "--reporter", "md",
                "--output", out, env=js.gateway_env())
    text = out.read_text()
    rows = [ln for ln in text.splitlines() if ln.startswith("| <code>j-a</code>")]
    assert len(rows) == 1, text
    assert rows[0].count("|") == 6, rows[0]  # five cells: the label's pipes are escaped
    assert "&#124;pipe&#124;" in rows[0]
    assert "none (tie)" not in text + r.stdout
    assert "none (no decisive juror)" in text, text


def test_junit_shows_each_jurors_answer_and_a_numeric_score_in_the_thresholds_units(
        tmp_path: Path, js: JudgeServer) -> None:
    js.script("j-a", Verdict(score=None, label="rude"))
    js.script("j-b", Verdict(score=None, label="friendly"))
    js.script("j-c", Verdict(score=None, label="rude"))
    js.script("n-a", Verdict(score=4))
    js.script("n-b", Verdict(score=3))
    path = tmp_path / "jury.yml"
    path.write_text(HEAD + """tools:
  - name: labeled
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Tone"
            verdict_kind: categorical
            labels: [rude, friendly]
            passing_labels: [friendly]
            jurors: [{model: j-a}, {model: j-b}, {model: j-c}]
  - name: numeric
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - target: result.content[0].text
        matcher:
          llm-jury:
            rubric: "Score"
            verdict_kind: numeric
            score_range: [1, 5]
            threshold: 3
            jurors: [{model: n-a}, {model: n-b}]
""", encoding="utf-8")
    out = tmp_path / "out.xml"
    cli("run", path, "--no-cache", "--reporter", "junit", "--output", out,
            env=js.gateway_env())
    xml = out.read_text()
    assert "abstained" not in xml, xml
    assert "juror j-a: answered rude." in xml and "juror j-b: answered friendly." in xml
    assert 'name="numeric.llm-jury.score" value="3.500"' in xml, xml
    assert 'name="numeric.llm-jury.threshold" value="3.000"' in xml
    assert 'name="labeled.llm-jury.verdict" value="rude"' in xml


@pytest.mark.parametrize(("extra", "judge", "says"), [
    ("threshold: 0.9", "verdict_kind: categorical, labels: [a, b], passing_labels: [a], model: g",
     "evals[0].judge: `threshold` has no meaning with `labels`"),
    ("threshold: 0.5", "verdict_kind: categorical, labels: [a, b], passing_labels: [a], "
                       "panel: [g, h], tie_break: pass",
     "evals[0].judge.tie_break: `tie_break` has no meaning with `labels`"),
])
def test_eval_settings_a_labeled_verdict_would_ignore_are_load_errors(
        tmp_path: Path, extra: str, judge: str, says: str) -> None:
    path = tmp_path / "evals.yml"
    path.write_text(f"""evals:
  - name: tone of a reply
    prompt: "Say hello."
    response: "Hello"
    rubric: "Rate the tone of the reply."
    {extra if "tie_break" not in judge else "tags: [x]"}
    judge: {{{judge}}}
""", encoding="utf-8")
    r = cli("validate", path)
    assert r.returncode == ExitCode.USAGE_ERROR, r.stdout + r.stderr
    assert f"{path}:7:" in r.stderr and says in r.stderr, r.stderr


def test_eval_explain_shows_the_verdict_mode_of_labeled_and_numeric_rows(
        tmp_path: Path) -> None:
    path = tmp_path / "evals.yml"
    path.write_text("""evals:
  - name: labeled
    prompt: "Say hello."
    response: "Hello"
    rubric: "Rate the tone."
    judge: {verdict_kind: categorical, labels: [rude, friendly], passing_labels: [friendly],
            panel: [g, h, i]}
  - name: numeric
    prompt: "Say hello."
    response: "Hello"
    rubric: "Rate the tone."
    threshold: 0.6
    judge: {verdict_kind: numeric, aggregate: median, panel: [g, h, i]}
""", encoding="utf-8")
    r = cli("eval", path, "--explain")
    assert r.returncode == ExitCode.OK, r.stdout + r.stderr
    assert ("rubric: free-form, labeled verdict, plurality of rude, friendly "
            "(passing: friendly)") in r.stdout, r.stdout
    assert "numeric verdict, median ≥ threshold 0.60" in r.stdout
    assert r.stdout.count("threshold") == 1
