"""Every gap category of docs/cascade.md comes out of one real run, one test each."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from evals.conftest import JUDGE, judge_env, run_suite
from support.judge_server import Fault, JudgeServer, Verdict

from mcptest.reporters.display_words import GAP_ADVICE

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "server" / "example_server.py"
RAW = REPO / "tests" / "run" / "raw_server.py"


def test_each_gap_category_is_produced(tmp_path: Path, js: JudgeServer) -> None:
    py = json.dumps(sys.executable)
    suite = tmp_path / "gaps.yml"
    suite.write_text(f"""
servers:
  ex: {{command: [{py}, {json.dumps(str(EXAMPLE))}]}}
  doomed: {{command: [{py}, {json.dumps(str(EXAMPLE))}]}}
  raw: {{command: [{py}, {json.dumps(str(RAW))}, serve], protocol: legacy}}
  missing: {{command: [mcptest-no-such-command-xyz]}}
judge:
  pricing:
    {JUDGE}: {{input: 0, output: 0}}
tools:
  - name: crashes
    server: doomed
    tool: crash
  - name: malformed result
    server: raw
    tool: no_content
    expect: [{{target: "result.content[0].text", matcher: {{exact: x}}}}]
  - name: tool error
    server: ex
    tool: divide
    args: {{a: 1, b: 0}}
    expect: [{{target: "result.content[0].text", matcher: {{contains: "0.5"}}}}]
  - name: wrong shape
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "Hi"}}}}]
  - name: wrong name
    server: ex
    tool: greeet
    args: {{name: Ada}}
    expect: [{{target: "result.content[0].text", matcher: {{exact: "Hello, Ada!"}}}}]
  - name: no command
    server: missing
    tool: anything
evals:
  - {{name: judged bad, prompt: p, response: "JUDGED-BAD", rubric: "Is good."}}
  - {{name: judge broke, prompt: p, response: "JUDGE-BROKE", rubric: "Is good."}}
  - name: judge uncalibrated
    prompt: p
    response: "UNCALIBRATED"
    rubric: "Is good."
    calibration: {{file: no-record.calibration.json}}
""", encoding="utf-8")
    # Once a call is refused the run stops spending (docs/judges.md "Budget"), so the eval too
    # dear for the cap gets a run of its own: otherwise which judged rows were sent before the
    # refusal would depend on timing.
    pricey = tmp_path / "pricey.yml"
    pricey.write_text("""
judge:
  pricing:
    pricey-judge: {input: 1000000, output: 1000000}
evals:
  - name: too expensive
    prompt: p
    response: "PRICEY"
    rubric: "Is good."
    judge: {model: pricey-judge}
""", encoding="utf-8")
    js.script(JUDGE, Verdict(0.2, reason="not good"), candidate="JUDGED-BAD")
    js.script(JUDGE, Fault.malformed(), candidate="JUDGE-BROKE")
    js.script(JUDGE, Verdict(0.2, reason="not good"), candidate="UNCALIBRATED")
    js.script("pricey-judge", Verdict(0.9))
    report = run_suite(suite, judge_env(js), tools=True, max_cost=0.5, require_calibration=True)
    stopped = run_suite(pricey, judge_env(js), tools=True, max_cost=0.5)
    assert not report.summary.budget_stopped and stopped.summary.budget_stopped
    gaps = {t.name: t.gap for t in report.tests + stopped.tests}
    assert gaps == {
        "crashes": "transport",
        "malformed result": "protocol",
        "tool error": "tool-error",
        "wrong shape": "shape",
        "wrong name": "suite",
        "no command": "environment",
        "judged bad": "judgment",
        "judge broke": "judge-reliability",
        "judge uncalibrated": "judge-calibration",
        "too expensive": "budget",
    }
    assert all(t.status != "passed" for t in report.tests + stopped.tests)
    assert report.summary.gaps == {g: 1 for g in gaps.values() if g != "budget"}
    wrong = next(t for t in report.tests if t.name == "wrong name")
    assert (wrong.message or "").startswith("unknown tool `greeet` on server `ex` "
                                            "(did you mean `greet`?)")
    assert stopped.summary.gaps == {"budget": 1}
    # `flaky` needs repeats: tests/cli/test_repeat_cli.py produces it through the CLI; `replay`
    # a model cassette (tests/agents/test_cassettes_cli.py) and `selection` a selection block
    # (tests/agents/test_selection_cli.py) are produced there
    assert set(GAP_ADVICE) - {"flaky", "replay", "selection"} == set(gaps.values())
    assert js.count("pricey-judge") == 0
