"""Selection tests through the CLI (docs/selection.md): a scripted model picks tools of the live
example server; accuracy, ties, margin, argument accuracy, tokens and cost come out exactly as
scripted. Then a pull request rewrites one tool's description: the model now picks another tool
for one prompt, and the comparison with the baseline leads with it; a replay of the recording
says the tools offered differ."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from support.cli_inproc import Ran, cli
from support.cli_run import KEYLESS, SERVER
from support.judge_server import JudgeServer, ToolCalls

pytestmark = pytest.mark.slow  # the CLI and the example server, four times

SUITE = """
servers:
  ex:
    command: [{python}, example_server.py]
judge:
  pricing: {{sel-m: {{input: 1.0, output: 2.0}}}}
selection:
  ex:
    models: [sel-m]
    k: 5
    temperature: 0.7
    min_accuracy: 0.75
    prompts:
      - {{prompt: "What's the weather in Oslo?", tool: forecast, args: {{city: {{regex: "(?i)^oslo$"}}}}}}
      - {{prompt: "Say hello to Ada.", tool: greet}}
      - {{prompt: "What is 7 plus 5?", tool: add}}
      - {{prompt: "What does ERR_AUTH mean?", tool: explain_error}}
"""
OLD = '"""A deterministic weather-like forecast for a city."""'
NEW = '"""Look up a city\'s record in the archive."""'


def call(tool: str, **args: Any) -> ToolCalls:
    return ToolCalls((tool, args), prompt_tokens=100, completion_tokens=10)


ANSWER = ToolCalls(content="12", prompt_tokens=100, completion_tokens=10)  # no tool called


def script(js: JudgeServer) -> None:
    js.script("sel-m", [call("forecast", city="Oslo")] * 3 + [call("forecast", city="Bergen"),
                                                              call("search_services", query="x")],
              candidate="weather in Oslo")
    js.script("sel-m", [call("greet", name="Ada")], candidate="hello to Ada")
    js.script("sel-m", [call("add", a=7, b=5)] * 2 + [call("divide", a=7, b=5)] * 2 + [ANSWER],
              candidate="7 plus 5")
    js.script("sel-m", [call("explain_error", code="ERR_AUTH")], candidate="ERR_AUTH")
    # after the description change, the forecast prompt goes to search_services
    js.script("sel-m", [call("search_services", query="Oslo")], candidate="weather in Oslo",
              tools="record in the archive")


def run(root: Path, env: dict[str, str], out: str, *args: str
        ) -> tuple[Ran, dict[str, Any]]:
    """`mcptest run` in the test's process with exactly `env`, as a subprocess given it."""
    done = cli("run", "sel.yml", *args, "--reporter", "json", "--output", f"{out}.json",
               "--reporter", "md", "--output", f"{out}.md", "--reporter", "pretty",
               cwd=root, env=env, inherit=False)
    return done, json.loads((root / f"{out}.json").read_text())


def test_selection_counts_as_scripted_and_a_description_change_is_reported(tmp_path: Path
                                                                           ) -> None:
    shutil.copy(SERVER, tmp_path / "example_server.py")
    (tmp_path / "sel.yml").write_text(SUITE.format(python=json.dumps(sys.executable)),
                                      encoding="utf-8")
    with JudgeServer() as js:
        script(js)
        env = {**js.gateway_env(), "PATH": "/usr/bin:/bin"}
        done, base = run(tmp_path, env, "base", "--models", "record")
        assert done.returncode == 0, done.stdout + done.stderr
        assert js.count("sel-m") == 20
        sent = js.requests("sel-m")
        [row] = base["tests"]
        assert (row["kind"], row["name"], row["status"]) == (
            "selection", "tool selection on ex", "passed")
        s = row["selection"]
        assert (s["k"], s["prompts"], s["scored"], s["won"], s["accuracy"]) == (5, 4, 4, 3, 0.75)
        assert (s["ties"], s["margin"], s["args_checked"], s["args_matched"]) == (1, 0, 4, 3)
        assert (s["samples"], s["prompt_tokens"], s["completion_tokens"]) == (20, 2000, 200)
        assert row["cost_usd"] == pytest.approx(20 * (100 * 1e-6 + 10 * 2e-6))
        assert [(p["votes"], p["won"], p["tie"], p["margin"]) for p in s["per_prompt"]] == [
            ({"forecast": 4, "search_services": 1}, True, False, 3),
            ({"greet": 5}, True, False, 5),
            ({"add": 2, "divide": 2, "(no tool)": 1}, False, True, 0),
            ({"explain_error": 5}, True, False, 5)]
        assert s["accuracy_ci95"] == {"low": 0.300642, "high": 0.954413}  # Wilson, 3 of 4
        # the model saw the server's real tools and descriptions, at the block's temperature
        assert all(b["temperature"] == 0.7 for b in sent)
        offered = {t["function"]["name"]: t["function"].get("description")
                   for t in sent[0]["tools"]}
        assert offered["forecast"] == OLD.strip('"')
        assert ("selection 3/4 · accuracy 0.75 [0.30, 0.95] · ties 1 · margin 0 · arguments 3/4"
                " · k 5 · 2,200 tokens") in done.stdout
        md = (tmp_path / "base.md").read_text()
        assert "| tool selection on ex | 3/4 | 0.75 [0.30, 0.95] | 1 | 0 | 3/4 | 2,200 | " \
               "$0.0024 |" in md

        # the pull request: forecast's description now reads like an archive lookup
        server = tmp_path / "example_server.py"
        server.write_text(server.read_text().replace(OLD, NEW))
        script(js)  # the same answers again, from their first step
        done, pr = run(tmp_path, env, "pr", "--baseline", "base.json")
        assert js.count("sel-m") == 40
    [row] = pr["tests"]
    assert row["status"] == "failed" and row["gap"] == "selection"
    assert row["selection"]["per_prompt"][0]["votes"] == {"search_services": 5}
    assert row["message"].startswith(
        "selection 2/4 (accuracy 0.50), ties 1, margin -5: accuracy 0.50 < "
        "min_accuracy 0.75. Closest: \"What's the weather in Oslo?\" → search_services 5 "
        "(expected forecast); 'What is 7 plus 5?' → add 2, divide 2, (no tool) 1 (expected add)")
    c = pr["comparison"]
    assert c["selection"] == [{
        "id": "sel.yml::selection::tool selection on ex", "name": "tool selection on ex",
        "old_won": 3, "old_scored": 4, "new_won": 2, "new_scored": 4, "old_margin": 0,
        "new_margin": -5, "old_cost_usd": row["cost_usd"], "new_cost_usd": row["cost_usd"]}]
    [compared] = c["rows"]
    assert (compared["change"], compared["old_scored"], compared["new_scored"]) == (
        "insufficient_data", 4, 4)  # one prompt of four: not significant at q = 0.05
    assert compared["p_value"] == pytest.approx(0.5)
    md = (tmp_path / "pr.md").read_text()
    assert md.split("\n", 2)[1:] == [
        "### Compared with the baseline", md.split("\n", 2)[2]]
    assert "### Compared with the baseline\n\n**selection 3/4 → 2/4, margin 0 → -5, cost " \
           "+0%**\n\n" in md
    assert "selection 3/4 → 2/4, margin 0 → -5, cost +0%" in done.stdout

    # the recording made before the change: every request now offers other tools
    done, replayed = run(tmp_path, dict(KEYLESS), "replay", "--models", "replay")
    [row] = replayed["tests"]
    assert row["status"] == "failed" and row["gap"] == "replay"
    assert "model turn 1 of sel-m is not in the cassette: the tools offered differ" in row[
        "message"]
    assert f'-      "description": "{OLD.strip(chr(34))}",' in row["message"]
    assert f'+      "description": "{NEW.strip(chr(34))}",' in row["message"]
