"""Cassettes hold every kind of model request (docs/cassettes.md): a judge, a jury of three and
sampling answered by a model, pushed on a handshake-era connection (the callback runs in the
connection's task, not the test's) and asked through input rounds on 2026-07-28. Recorded once,
they replay with no provider at all and every vote the same."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli_run import run_json
from support.judge_server import Fault, JudgeServer, Verdict
from support.servers import CLIENT_SERVER

pytestmark = pytest.mark.slow  # the CLI and two stdio servers, three times

PY, ASKING = json.dumps(sys.executable), json.dumps(str(CLIENT_SERVER))
SUITE = f"""servers:
  pushed:
    command: [{PY}, {ASKING}]
    protocol: legacy
    client: {{sampling: [{{model: summarizer}}]}}
  rounds:
    command: [{PY}, {ASKING}]
    protocol: "2026-07-28"
    client: {{sampling: [{{model: summarizer}}]}}
judge:
  model: judge-m
tools:
  - name: pushed sampling, judged
    server: pushed
    tool: summarize
    args: {{text: a long story about bees}}
    expect:
      - target: "result.content[0].text"
        matcher: {{llm-judge: {{rubric: "Mentions bees."}}}}
  - name: sampling in rounds, by a jury
    server: rounds
    tool: summarize
    args: {{text: a long story about owls}}
    expect:
      - target: "result.content[0].text"
        matcher:
          llm-jury:
            rubric: "A one-line summary."
            jurors: [{{model: juror-a}}, {{model: juror-b}}, {{model: juror-c}}]
"""


def verdicts(report: dict[str, Any]) -> list[Any]:
    out = []
    for row in report["tests"]:
        for a in row["assertions"]:
            votes = sorted((v["model"], v.get("score")) for v in a["judge"]["votes"])
            out.append((row["name"], row["status"], a["status"], votes,
                        row["response"]["result"]["content"][0]["text"]))
    return out


def test_judges_juries_and_sampling_replay_without_a_provider(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yml"
    suite.write_text(SUITE, encoding="utf-8")
    with JudgeServer() as js:
        js.script("summarizer", [Fault.text("Bees, briefly.")], candidate="bees")
        js.script("summarizer", [Fault.text("Owls, briefly.")], candidate="owls")
        js.script("judge-m", [Verdict(score=0.8)])
        js.script("juror-a", [Verdict(score=0.9)])
        js.script("juror-b", [Verdict(score=0.7)])
        js.script("juror-c", [Verdict(score=0.2, reason="too short")])
        done, live = run_json(suite, "--models", "record", env=js.gateway_env())
        sent = sum(js.count(m) for m in ("summarizer", "judge-m", "juror-a", "juror-b",
                                         "juror-c"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert sent == 6
    assert live["summary"]["cassettes"]["recorded"] == 6
    files = sorted(p.name for p in (tmp_path / "cassettes" / "suite").iterdir())
    assert [f.rsplit("-", 1)[0] for f in files] == ["tool-pushed-sampling-judged",
                                                    "tool-sampling-in-rounds-by-a-jury"]

    done, replayed = run_json(suite, "--models", "replay", env={})
    assert done.returncode == 0, done.stdout + done.stderr
    assert verdicts(replayed) == verdicts(live)
    assert replayed["tests"][0]["response"]["result"]["content"][0]["text"] == (
        "Summary by summarizer: Bees, briefly.")
    assert replayed["summary"]["cassettes"] == {"mode": "replay", "replayed": 6, "recorded": 0,
                                                "written": 0, "diverged": 0}
    assert replayed["summary"]["cost_usd"] == 0 and replayed["summary"]["judge_calls"] == 0

    # a rubric changed since the recording: the test's cassette is stale, and says so
    suite.write_text(SUITE.replace("Mentions bees.", "Mentions bees and honey."),
                     encoding="utf-8")
    done, stale = run_json(suite, "--models", "replay", env={})
    assert done.returncode == 1
    first, second = stale["tests"]
    assert first["status"] == "failed" and first["gap"] == "replay"
    assert "is stale: the test changed since it was recorded" in first["message"]
    assert "record it with `mcptest run --models record` again" in first["message"]
    assert second["status"] == "passed"
