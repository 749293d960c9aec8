"""`--require-judge` holds for a judge that has a `calibration:` but no record: a deferral it
turns into a failure was gated again as "advisory (uncalibrated)" and made `deferred`, exit 0,
saying "judge said failed" of a judge that said nothing (found by a reviewer). The calibration
gate now leaves alone a status no judge gave (`JudgeDetail.unheard`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, greet_suite
from support.judge_server import JudgeServer, Verdict

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts the example server

UNCALIBRATED = ("{llm-judge: {rubric: A polite greeting., model: gpt-4o, "
                "calibration: {file: greet.calibration.json}}}")


@pytest.mark.parametrize("flags", [["--require-judge"],
                                   ["--require-judge", "--require-calibration"]])
def test_a_judge_that_never_answered_fails_under_require_judge(tmp_path: Path,
                                                              flags: list[str]) -> None:
    suite = greet_suite(tmp_path, matcher=UNCALIBRATED)
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path)}
    r = cli("run", suite, "--no-cache", *flags, "--reporter", "json", "--output", "r.json",
            cwd=tmp_path, env=env, inherit=False)
    assert r.returncode == ExitCode.TESTS_FAILED, r.stderr
    (assertion,) = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tests"][0][
        "assertions"]
    assert assertion["status"] == "failed"
    assert "advisory" not in assertion["message"] and "judge said" not in assertion["message"]
    assert assertion["message"].startswith("judge required but unavailable")


GREET = """{head}tools:
  - name: greets Ada
    server: ex
    tool: greet
    args: {{name: Ada}}
    expect:
      - target: result.content[0].text
        matcher:
"""
"""One greet test whose matcher the cases below write."""
HALF_HEARD = """jurors:
              - {{model: openai/judge-a, base_url: "{url}"}}
              - {{model: anthropic/claude-sonnet-4-5}}
"""
"""A jury of a juror the loopback judge answers and one with no key."""
JURY = "calibration: {{file: missing.calibration.json}}\n" + GREET + """          llm-jury:
            rubric: The answer greets Ada.
            """ + HALF_HEARD
CASCADE = GREET + """          llm-judge:
            rubric: The answer greets Ada.
            model: openai/judge-a
            base_url: "{url}"
            calibration: {{file: missing.cascade.json}}
            escalate:
              - llm-jury:
                  """ + HALF_HEARD.replace("\n              ", "\n                    ")
PANEL = """calibration: {{file: missing.calibration.json}}
evals:
  - name: note
    prompt: What was deployed?
    response: Deployed billing-api v2.1.0 to production.
    rubric: The answer names the release.
    threshold: 0.5
    judge:
      panel: [openai/judge-a, anthropic/claude-sonnet-4-5]
      aggregate: majority
"""


@pytest.mark.parametrize("kind", ["jury", "panel", "cascade"])
def test_a_jury_heard_in_part_fails_under_require_judge(tmp_path: Path, kind: str) -> None:
    """One juror answers (and passes), the other has no key: --require-judge fails the jury on
    no juror's verdict, and the uncalibrated gate must not call that an advisory `failed`."""
    with JudgeServer() as js:
        js.script("*", Verdict(0.9))
        text = {"jury": JURY, "panel": PANEL, "cascade": CASCADE}[kind].format(
            head=HEAD, url=js.base_url)
        (tmp_path / "suite.yml").write_text(text, encoding="utf-8")
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path),
               "MCPTEST_JUDGE_API_KEY": "sk-loopback-judge-key",  # the jury's juror, its URL
               "OPENAI_API_KEY": "sk-loopback-openai-key",  # the panel's OpenAI member, here
               "OPENAI_BASE_URL": js.base_url}  # no Anthropic key: the other member defers
        r = cli("eval" if kind == "panel" else "run", "suite.yml", "--no-cache",
                "--require-judge", "--reporter", "pretty", "--reporter", "json", "--output",
                "r.json", cwd=tmp_path, env=env, inherit=False)
        assert js.count() >= 1  # the judges with a key were asked
    assert r.returncode == ExitCode.TESTS_FAILED, r.stdout + r.stderr
    row = json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["tests"][0]
    decided = row if kind == "panel" else row["assertions"][0]
    assert decided["status"] == "failed"
    assert "judge required but unavailable: " in decided["message"], decided["message"]
    assert not decided["message"].startswith("advisory")
    assert "judged pass rate 0.00" not in r.stdout  # no juror's verdict counted as a fail
