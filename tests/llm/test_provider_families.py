"""Every provider family through its own wire format, through the CLI as a user runs it: the
provider's key and litellm's base-URL variable pointed at the family's stand-in
(`support.providers`), bare model names, no gateway. Each run grades an `llm-judge`, a
two-juror `llm-jury`, a rubric eval and an agent test, and the cost it reports is what the
stand-in billed times litellm's price for the model."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_run import HEAD, run_json
from support.judge_server import Fault, ToolCalls, Verdict
from support.providers import FAMILIES

from mcptest.exit_codes import ExitCode
from mcptest.llm.price_table import price_table

pytestmark = pytest.mark.slow  # the CLI in a subprocess, the example server, litellm

# family -> (judge, second juror, agent): bare names, as users write them; a reasoning model
# among OpenAI's and thinking models among Gemini's
MODELS = {
    "anthropic": ("claude-opus-4-7", "claude-haiku-4-5", "claude-sonnet-4-5"),
    "openai": ("gpt-4o", "o3-mini", "gpt-4.1-mini"),
    "gemini": ("gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite"),
    "mistral": ("mistral-small-latest", "codestral-latest", "mistral-large-latest"),
}


def suite(judge: str, juror: str, agent: str) -> str:
    return HEAD + f"""judge:
  model: {judge}
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
            jurors: [{{ model: {judge} }}, {{ model: {juror} }}]
evals:
  - name: fixed answer eval
    prompt: "What changed?"
    response: "The 2.3.0 release added per-tenant rate limits."
    rubric: "EVAL: accurate summary of the release."
agents:
  - name: agent calls the tool
    models: [{agent}]
    servers: [ex]
    prompt: "Write the release note for checkout v2.31.4."
    max_turns: 3
    expect:
      - target: tool_calls[0].name
        matcher: {{ exact: release_note }}
      - target: final
        matcher: {{ regex: "shipped" }}
"""


def price(family: str, model: str) -> tuple[float, float]:
    table = price_table()
    entry = table.get(f"{family}/{model}") or table[model]
    return entry["input_cost_per_token"], entry["output_cost_per_token"]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_judge_jury_eval_and_agent_on_each_family(family: str, tmp_path: Path) -> None:
    judge, juror, agent = MODELS[family]
    with FAMILIES[family]() as s:
        s.script(judge, Verdict(score=0.9, reason="names both"), rubric="JUDGE:")
        s.script(judge, Verdict(score=0.8), rubric="JURY:")
        s.script(juror, Verdict(score=0.75), rubric="JURY:")
        s.script(judge, Verdict(score=0.85), rubric="EVAL:")
        s.script(agent, [ToolCalls(("release_note", {"service": "checkout",
                                                     "tag": "v2.31.4"})),
                         Fault.text("checkout v2.31.4 shipped.")])
        path = tmp_path / "suite.yml"
        path.write_text(suite(judge, juror, agent), encoding="utf-8")
        r, rep = run_json(path, "--with-evals", env={**s.env(),
                                                     "MCPTEST_PYTHON": sys.executable})
        assert s.problems == [], s.problems
        assert r.returncode == ExitCode.OK, r.stdout + r.stderr
        rows = {t["name"]: t for t in rep["tests"]}
        judged = rows["judged release note"]["assertions"]
        assert judged[0]["judge"]["score"] == 0.9 and judged[0]["status"] == "passed"
        jury = judged[1]["judge"]["jury"]
        assert (jury["passed_jurors"], jury["decisive"]) == (2, 2)
        assert rows["fixed answer eval"]["status"] == "passed"
        agent_row = next(t for n, t in rows.items() if n.startswith("agent calls the tool"))
        assert agent_row["status"] == "passed", json.dumps(agent_row)[:2000]
        # every model call reached the stand-in under the model's own name
        assert {m for m, _, _ in s.billed} == {judge, juror, agent}
        expected = sum(p * price(family, m)[0] + c * price(family, m)[1]
                       for m, p, c in s.billed)
        assert rep["summary"]["cost_usd"] == pytest.approx(expected, abs=1e-6)  # reports round
        assert expected > 0
