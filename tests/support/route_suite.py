"""One suite a route is tried with, as a user writes it: an `llm-judge`, a two-juror `llm-jury`,
a rubric eval and three agent tests (one that finishes, one whose final turn is cut at the token
limit, one whose final turn is refused), run through the CLI in process (`support.cli_inproc`),
with its JSON report read back. Each route's stand-in is scripted by `script_route`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from support.cli_inproc import Ran, cli
from support.cli_run import HEAD
from support.judge_server import Fault, ToolCalls, Verdict
from support.providers.base import StandIn

CALL = ToolCalls(("release_note", {"service": "checkout", "tag": "v2.31.4"}))
FINISHED = "checkout v2.31.4 shipped."
AGENTS = ("agent finishes", "agent is cut", "agent is refused")


def route_suite(judge: str, juror: str, agent: str) -> str:
    """The suite (model names as the route's users write them)."""
    agents = "".join(f"""  - name: {name}
    models: [{json.dumps(agent)}]
    servers: [ex]
    prompt: "{marker}: write the release note for checkout v2.31.4."
    max_turns: 3
    expect:
      - target: tool_calls[0].name
        matcher: {{ exact: release_note }}
      - target: final
        matcher: {{ regex: "shipped" }}
""" for name, marker in zip(AGENTS, ("AGENT-OK", "AGENT-CUT", "AGENT-REFUSE"), strict=True))
    return HEAD + f"""judge:
  model: {json.dumps(judge)}
tools:
  - name: judged release note
    server: ex
    tool: release_note
    args: {{ service: checkout, tag: v2.31.4 }}
    expect:
      - target: "result.content[0].text"
        matcher: {{ llm-judge: {{ rubric: "JUDGE: names the service and the tag." }} }}
      - target: "result.content[0].text"
        matcher:
          llm-jury:
            rubric: "JURY: reads as a deployment note."
            jurors: [{{ model: {json.dumps(judge)} }}, {{ model: {json.dumps(juror)} }}]
evals:
  - name: fixed answer eval
    prompt: "What changed?"
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: "EVAL: accurate summary of the release."
agents:
{agents}"""


def script_route(s: StandIn, judge: str, juror: str, agent: str, *,
                 refusal: Fault | None = None) -> None:
    """Verdicts for the judges; the three agents call the tool, then finish, are cut (their
    text says "shipped", so only the stop reason can fail them) or are refused (`refusal`: the
    route's own refusal; by default a refusal field carrying "shipped")."""
    s.script(judge, Verdict(score=0.9, reason="names both"), rubric="JUDGE:")
    s.script(judge, Verdict(score=0.8), rubric="JURY:")
    s.script(juror, Verdict(score=0.75), rubric="JURY:")
    s.script(judge, Verdict(score=0.85), rubric="EVAL:")
    s.script(agent, [CALL, Fault.text(FINISHED)], rubric="AGENT-OK")
    s.script(agent, [CALL, Fault.truncated("checkout v2.31.4 shipped. Also")], rubric="AGENT-CUT")
    s.script(agent, [CALL, refusal or Fault.refusal("checkout v2.31.4 shipped.", field=True)],
             rubric="AGENT-REFUSE")


def run_route(tmp_path: Path, text: str, env: dict[str, str], *args: str
              ) -> tuple[Ran, dict[str, Any]]:
    """`mcptest run` of `text` in process, the pretty report on stdout, the JSON one read back."""
    path = tmp_path / "suite.yml"
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "report.json"
    r = cli("run", path, "--no-cache", "--with-evals", "--reporter", "pretty", "--reporter",
            "json", "--output", out, *args, env=env)
    assert out.is_file(), r.stdout + r.stderr
    return r, json.loads(out.read_text(encoding="utf-8"))


def files(root: Path) -> dict[str, bytes]:
    """The cassette files under `root`, by relative path, with their bytes."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.json"))}


def rows(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Report rows by name (an agent row's `[model=…]` suffix left off)."""
    return {t["name"].split(" [model=")[0]: t for t in report["tests"]}


def check_verdicts(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The judge, jury, eval and finishing agent passed; the cut agent is an error naming its
    turn, the refused one failed with the provider's reason. Returns the rows."""
    by = rows(report)
    judged = by["judged release note"]["assertions"]
    assert judged[0]["judge"]["score"] == 0.9 and judged[0]["status"] == "passed", judged[0]
    jury = judged[1]["judge"]["jury"]
    assert (jury["passed_jurors"], jury["decisive"]) == (2, 2), jury
    assert by["fixed answer eval"]["status"] == "passed", by["fixed answer eval"]
    ok, cut, refused = (by[n] for n in AGENTS)
    assert ok["status"] == "passed", json.dumps(ok)[:2000]
    assert ok["response"]["conversation"]["stop"] == "final"
    assert cut["status"] == "error", json.dumps(cut)[:2000]
    assert "turn 2 cut at max_tokens" in cut["message"], cut["message"]
    assert cut["response"]["conversation"]["stop"] == "cut" and "final" not in cut["response"]
    assert refused["status"] == "failed", json.dumps(refused)[:2000]
    assert "turn 2 refused by the provider" in refused["message"], refused["message"]
    assert refused["response"]["conversation"]["stop"] == "refused"
    return by
