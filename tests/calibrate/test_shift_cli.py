"""A calibrated cascade on a run that does not look like its labels (docs/cascade.md, "When the
guarantee does not apply"), as a user meets it: `mcptest calibrate` on the example's labels,
where the small judge is sure (confidence about 0.9) on all but two; then a run of 24 release
notes on which it is barely over its threshold (confidence 0.17). The run says the guarantee
does not apply and why, sends every verdict to the jury, and `--on-shift advisory` or
`--require-calibration` do what they say instead."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from calibrate.test_escalate_example import (  # the worked example's set-up
    CHEAP,
    JURORS,
    example,
    js,
    mcptest,
    script_labels,
)
from support.judge_server import JudgeServer, Verdict

pytestmark = pytest.mark.slow  # starts the example server and mcptest processes
__all__ = ["example", "js"]  # fixtures

CALIBRATE = ("calibrate", "examples/escalate/mcptest.yml", "--labels",
             "examples/calibration/labels.yaml", "--target-agreement", "0.8", "--risk", "0.2")


def _shifted_suite(root: Path, count: int = 24) -> str:
    """The example's cascade over a table of `count` services (same judge, rubric and record)."""
    suite = (root / "examples/escalate/mcptest.yml").read_text(encoding="utf-8")
    cases = ", ".join(f"{{service: zeta{k:02d}}}" for k in range(count))
    suite = suite.replace("    args: { service: billing, tag: v2.4.1 }",
                          "    args: { service: \"${service}\", tag: v2.4.1 }\n"
                          f"    cases: [{cases}]")
    (root / "examples/escalate/shifted.yml").write_text(suite, encoding="utf-8")
    return "examples/escalate/shifted.yml"


def _run(root: Path, js: JudgeServer, suite: str, *args: str) -> tuple[int, dict, str]:
    out = mcptest(root, js, "run", suite, "--no-cache", "--reporter", "json", "--output",
                  "report.json", "--reporter", "md", "--output", "report.md", *args)
    report = json.loads((root / "report.json").read_text(encoding="utf-8"))
    return out.returncode, report, (root / "report.md").read_text(encoding="utf-8")


def test_a_shifted_run_escalates_and_says_why(example: Path, js: JudgeServer) -> None:
    script_labels(js, example)
    assert mcptest(example, js, *CALIBRATE).returncode == 0
    record = json.loads((example / "examples/escalate/release-note.cascade.json").read_text())
    assert len(record["cascade"]["tiers"][0]["confidences"]) == 24
    js.script(CHEAP, Verdict(score=0.75), candidate="Deployed zeta")  # sure enough, barely
    for juror in JURORS:
        js.script(juror, Verdict(score=0.9), candidate="Deployed zeta")
    suite = _shifted_suite(example)

    code, report, md = _run(example, js, suite)
    assert code == 0, report["warnings"]
    said = [w for w in report["warnings"] if w.startswith("cascade release-note.cascade.json")]
    assert len(said) == 1 and "do not look like the labelled ones" in said[0], report["warnings"]
    assert "tier 1 confidence p = " in said[0] and "sent to the last tier" in said[0]
    assert "found at the end of the run, after 24 answers of tier 1" in said[0]  # < 30: no look
    for t in report["tests"]:
        a = t["assertions"][0]
        assert a["judge"]["escalation"]["decided_by"] == 2, a["message"]
        assert a["calibration"]["state"] == "shifted" and a["status"] == "passed"
        assert "do not look like the labelled ones" in a["message"]
    assert report["summary"]["cascade"]["settled"] == [0, 24]
    assert "do not look like the labelled ones" in md

    code, report, _ = _run(example, js, suite, "--on-shift", "advisory")
    assert code == 0
    a = report["tests"][0]["assertions"][0]
    assert a["calibration"]["advisory"] and a["judge"]["escalation"]["decided_by"] == 1
    assert any("advisory (--on-shift advisory)" in w for w in report["warnings"])

    code, report, _ = _run(example, js, suite, "--require-calibration")
    assert code == 1
    assert all(t["status"] == "failed" for t in report["tests"])
    assert report["tests"][0]["assertions"][0]["message"].startswith("calibration required: ")


def test_a_shift_found_at_a_look_spares_the_rest_the_cheap_tier(example: Path,
                                                                 js: JudgeServer) -> None:
    """64 shifted answers: the first look, after 30 answers of the small judge, finds the
    shift; the answers after it go straight to the jury (they wait for the look: none asks the
    small judge), and only the verdicts the small judge settled before are graded again."""
    script_labels(js, example)
    assert mcptest(example, js, *CALIBRATE).returncode == 0
    js.script(CHEAP, Verdict(score=0.75), candidate="Deployed zeta")
    for juror in JURORS:
        js.script(juror, Verdict(score=0.9), candidate="Deployed zeta")
    js.reset_counts()
    code, report, md = _run(example, js, _shifted_suite(example, 64))
    assert code == 0, report["warnings"]
    cheap = js.count(CHEAP)
    assert cheap == 30, cheap  # 64 without the look
    assert js.count() == cheap + 64 * len(JURORS)  # the jury once per answer, never twice
    said = [w for w in report["warnings"] if w.startswith("cascade release-note.cascade.json")]
    assert len(said) == 1 and "found at a look after 30 answers of tier 1" in said[0], said
    assert "the rest of its items went straight to the last tier" in said[0]
    assert "found at a look after 30 answers of tier 1" in md  # the PR comment says it too
    during = [t["assertions"][0] for t in report["tests"]
              if t["assertions"][0]["message"].startswith("escalated during the run: ")]
    after = [t["assertions"][0] for t in report["tests"]
             if t["assertions"][0]["message"].startswith("escalated after the run: ")]
    assert len(during) == 64 - cheap and len(after) == cheap
    for a in during + after:
        e = a["judge"]["escalation"]
        assert e["decided_by"] == 2 and a["calibration"]["state"] == "shifted"
    step = during[0]["judge"]["escalation"]["tiers"][0]
    assert not step["ran"] and step["reason"].startswith(
        "not run: the shift check fired during the run: the run's items do not look like")
    assert report["summary"]["cascade"]["settled"] == [0, 64]
