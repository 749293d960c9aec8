"""A juror lost to an error is never silent (docs/jury.md, "Lost seats"): the bundled
cross-family jury with Gemini overloaded on every try still decides on the two jurors that
answered, and the terminal, the PR comment's headline (the job summary is the same markdown)
and SARIF name the lost seat and its reason; `--require-judge` and `strict_panel` fail it."""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO
from support.judge_server import Fault, Verdict
from support.providers import AnthropicStandIn, GeminiStandIn, OpenAIStandIn

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # the CLI in a subprocess, the example server, litellm

EXAMPLE = REPO / "examples" / "llm-jury-consensus" / "tests" / "jury-consensus.yml"
LOST = ("2 of 3 jurors answered; gemini-2.5-pro: server error (503 UNAVAILABLE): The model is "
        "overloaded. Please try again later. after 4 tries")


@pytest.fixture
def env() -> Iterator[dict[str, str]]:
    with AnthropicStandIn() as a, OpenAIStandIn() as o, GeminiStandIn() as g:
        a.script("claude-opus-4-7", Verdict(score=0.9))
        o.script("gpt-4o", Verdict(score=0.85))
        g.script("gemini-2.5-pro", Fault.overloaded())
        yield {**a.env(), **o.env(), **g.env(), "MCPTEST_PYTHON": sys.executable}
        assert g.count() == 4  # asked, and retried, never skipped


def run(suite: Path, tmp_path: Path, env: dict[str, str], *args: str) -> tuple[
        int, str, dict, str, dict]:
    out = {k: tmp_path / f"out.{k}" for k in ("json", "md", "sarif")}
    r = cli("run", "--config", suite, "--no-cache", *args, "--reporter", "pretty",
                *(x for k, p in out.items() for x in ("--reporter", k, "--output", str(p))),
                cwd=REPO, env=env)
    assert out["json"].is_file(), r.stderr
    return (r.returncode, r.stdout, json.loads(out["json"].read_text()),
            out["md"].read_text(encoding="utf-8"), json.loads(out["sarif"].read_text()))


def test_a_lost_seat_is_named_everywhere_the_run_is_read(
        tmp_path: Path, env: dict[str, str]) -> None:
    code, stdout, rep, md, sarif = run(EXAMPLE, tmp_path, env)
    assert code == ExitCode.OK, stdout  # two of three passed: quorum 0.67 met on the two
    jury_assertion = rep["tests"][0]["assertions"][2]
    jury = jury_assertion["judge"]["jury"]
    assert (jury["seats"], jury["decisive"], jury["passed_jurors"]) == (3, 2, 2)
    assert [x["model"] for x in jury["lost"]] == ["gemini-2.5-pro"]
    assert LOST in jury_assertion["message"]
    # the terminal: the jury line says what the band rests on, the summary names the seat
    assert "on 2 of 3 jurors" in stdout and ", 1 lost" in stdout
    assert f"juror seat lost: release note reads as a deployment note across the jury: {LOST}" \
        in stdout
    # the comment's headline (and the job summary: the same markdown)
    headline = md.splitlines()[md.splitlines().index(next(
        x for x in md.splitlines() if x.startswith("### ")))]
    assert "⚠️ 1 juror seat(s) lost" in headline
    above_the_table = html.unescape(md.split("\n|", 1)[0])  # the md escapes `:` as `&#58;`
    assert f"juror seat lost in **release note reads as a deployment note across the jury**: " \
        f"{LOST}" in above_the_table
    # SARIF: a warning on the passing test, under its own rule
    results = sarif["runs"][0]["results"]
    lost = [r for r in results if r["ruleId"] == "mcptest/jury-seat-lost"]
    assert len(lost) == 1 and lost[0]["level"] == "warning"
    assert "gemini-2.5-pro" in lost[0]["message"]["text"]


def test_require_judge_fails_a_jury_that_lost_a_seat(
        tmp_path: Path, env: dict[str, str]) -> None:
    code, stdout, rep, _, sarif = run(EXAMPLE, tmp_path, env, "--require-judge")
    assert code == ExitCode.TESTS_FAILED, stdout
    a = rep["tests"][0]["assertions"][2]
    assert a["status"] == "failed"
    assert a["message"] == f"judge required but unavailable: {LOST}"
    assert any(LOST in r["message"]["text"] for r in sarif["runs"][0]["results"])


def test_strict_panel_fails_a_jury_that_lost_a_seat(
        tmp_path: Path, env: dict[str, str]) -> None:
    suite = tmp_path / "strict.yml"
    suite.write_text(EXAMPLE.read_text(encoding="utf-8").replace(
        "quorum: 0.67          # fraction", "strict_panel: true\n            quorum: 0.67  #"
    ).replace("cwd: ../../server", f"cwd: {REPO / 'examples' / 'server'}"), encoding="utf-8")
    code, stdout, rep, _, _ = run(suite, tmp_path, env)
    assert code == ExitCode.TESTS_FAILED, stdout
    a = rep["tests"][0]["assertions"][2]
    assert (a["status"], a["message"]) == (
        "failed", f"inconclusive: strict_panel needs every seat: {LOST}")
    assert rep["tests"][0]["gap"] == "judge-reliability"


def test_an_eval_panel_names_its_lost_seat_too(tmp_path: Path, env: dict[str, str]) -> None:
    suite = tmp_path / "panel.yml"
    suite.write_text("""evals:
  - name: release summary
    prompt: "What changed?"
    response: "checkout v2.31.4 shipped."
    rubric: "Names the service and the tag."
    judge: { panel: [claude-opus-4-7, gpt-4o, gemini-2.5-pro] }
""", encoding="utf-8")
    code, stdout, rep, md, _ = run(suite, tmp_path, env, "--with-evals")
    assert code == ExitCode.OK, stdout
    row = rep["tests"][0]
    assert row["judge"]["jury"]["lost"][0]["model"] == "gemini-2.5-pro"
    assert LOST in row["message"] and f"juror seat lost: release summary: {LOST}" in stdout
    assert "⚠️ 1 juror seat(s) lost" in md
