"""Model cassettes through the CLI (docs/cassettes.md): an agent test with a judged answer is
recorded against the loopback judge and the example server, replayed with the judge stopped
(no request, $0, the same verdict), and fails with the first differing turn as a diff once the
server's answer changes, as a pull request would change it."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from evals.conftest import judge_env
from support.cli_inproc import Ran
from support.cli_inproc import cli as inproc
from support.cli_run import HEAD, KEYLESS, SERVER
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # the CLI and the example server, several times

SUITE = """
servers:
  ex:
    command: [{python}, example_server.py]
agents:
  - name: greets and adds
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet Ada, then add 2 and 3."
    expect:
      - {{target: "tool_calls[1].result.structuredContent.result", matcher: {{exact: 5}}}}
      - {{target: final, matcher: {{contains: "= 5"}}}}
      - target: final
        matcher: {{llm-judge: {{rubric: "States the sum of 2 and 3.", model: judge-m}}}}
"""


def cli(cwd: Path, env: dict[str, str], *args: str) -> tuple[Ran, dict[str, Any]]:
    """`mcptest run agents.yml` in this process with exactly `env`, as a subprocess given it
    (what the run writes and replays is the point, not the process)."""
    done = inproc("run", "agents.yml", *args, "--reporter", "json", "--output", "r.json",
                  "--reporter", "pretty", cwd=cwd, env=env, inherit=False)
    return done, json.loads((cwd / "r.json").read_text())


def project(tmp_path: Path) -> Path:
    shutil.copy(SERVER, tmp_path / "example_server.py")
    (tmp_path / "agents.yml").write_text(SUITE.format(python=json.dumps(sys.executable)),
                                         encoding="utf-8")
    return tmp_path


def script(js: JudgeServer) -> None:
    js.script("gpt-4o", [ToolCalls(("greet", {"name": "Ada"})),
                         ToolCalls(("add", {"a": 2, "b": 3})),
                         Fault.text("Hello Ada! 2 + 3 = 5.")])
    js.script("judge-m", [Verdict(score=0.9, reason="states the sum")])


def test_record_then_replay_with_the_judge_stopped_then_a_changed_answer(tmp_path: Path
                                                                          ) -> None:
    root = project(tmp_path)
    with JudgeServer() as js:
        script(js)
        env = judge_env(js)
        done, live = cli(root, env, "--models", "record")
        assert done.returncode == 0, done.stdout + done.stderr
        assert js.count("gpt-4o") == 3 and js.count("judge-m") == 1
        [row] = live["tests"]
        assert row["status"] == "passed" and row["cost_usd"] > 0
        assert live["summary"]["cassettes"] == {"mode": "record", "replayed": 0, "recorded": 4,
                                                "written": 1, "diverged": 0}
        [tape] = (root / "cassettes" / "agents").iterdir()
        assert tape.name.startswith("agent-greets-and-adds-") and tape.suffix == ".json"
        recorded = tape.read_bytes()

        # a replay sends nothing, even with the judge up and scripted
        done, replayed = cli(root, env, "--models", "replay")
        assert done.returncode == 0, done.stdout + done.stderr
        assert js.count("gpt-4o") == 3 and js.count("judge-m") == 1
        assert replayed["summary"]["cassettes"]["replayed"] == 4
        assert ("model cassettes (replay): 4 answer(s) replayed, 0 recorded live, 0 file(s) "
                "written") in done.stdout

    # the judge stopped and no key or gateway at all: the same verdict, $0
    done, offline = cli(root, dict(KEYLESS), "--models", "replay")
    assert done.returncode == 0, done.stdout + done.stderr
    [again] = offline["tests"]
    assert again["status"] == row["status"] == "passed"
    assert [a["status"] for a in again["assertions"]] == [a["status"] for a in row["assertions"]]
    assert again["response"]["final"] == row["response"]["final"] == "Hello Ada! 2 + 3 = 5."
    assert again["response"]["conversation"]["turns"] == 3
    assert again["cost_usd"] == 0 and offline["summary"]["cost_usd"] == 0
    assert offline["summary"]["judge_calls"] == 0
    assert offline["summary"]["cassettes"] == {"mode": "replay", "replayed": 4, "recorded": 0,
                                               "written": 0, "diverged": 0}
    assert tape.read_bytes() == recorded  # a replay writes nothing

    # the pull request changes what `add` answers: the third turn is not in the cassette
    server = root / "example_server.py"
    server.write_text(server.read_text().replace("return a + b\n", "return a + b + 1\n"))
    done, diverged = cli(root, dict(KEYLESS), "--models", "replay")
    assert done.returncode == 1, done.stdout + done.stderr
    [failed] = diverged["tests"]
    assert failed["status"] == "failed" and failed["gap"] == "replay"
    message = failed["message"]
    assert message.startswith(f"model replay ({tape.relative_to(root)}): model turn 3 of "
                              "gpt-4o is not in the cassette: message 5 (tool) differs from "
                              "the recording\n--- recorded\n+++ now\n"), message
    assert '-      "result": 5\n+      "result": 6' in message, message
    assert diverged["summary"]["cassettes"]["diverged"] == 1
    assert "model turn 3 of gpt-4o is not in the cassette" in done.stdout
    assert tape.read_bytes() == recorded


def test_replay_or_record_sends_only_what_is_missing(tmp_path: Path) -> None:
    root = project(tmp_path)
    with JudgeServer() as js:
        script(js)
        env = judge_env(js)
        assert cli(root, env, "--models", "record")[0].returncode == 0
        server = root / "example_server.py"
        server.write_text(server.read_text().replace("return a + b\n", "return a + b + 1\n"))
        js.script("gpt-4o", [Fault.text("Hello Ada! 2 + 3 = 6.")])
        done, report = cli(root, env, "--models", "replay-or-record")
        # turns 1 and 2 replayed; turn 3 (after the new tool result) sent; the judge is not
        # asked once a deterministic check failed
        assert js.count("gpt-4o") == 4 and js.count("judge-m") == 1
        assert report["summary"]["cassettes"] == {
            "mode": "replay-or-record", "replayed": 2, "recorded": 1, "written": 1,
            "diverged": 0}
        assert report["tests"][0]["status"] == "failed"  # 6 is not 5: the server broke
        assert done.returncode == 1
    # the cassette now holds the new answers: a replay of it sends nothing and agrees
    done, replayed = cli(root, dict(KEYLESS), "--models", "replay")
    assert replayed["summary"]["cassettes"]["replayed"] == 3, done.stdout
    assert replayed["tests"][0]["response"]["final"] == "Hello Ada! 2 + 3 = 6."


def test_repetitions_share_a_cassette_and_replay_the_same_pass_rate(tmp_path: Path) -> None:
    """A repeated agent test asks the same first turn three times: one request in the file with
    its three answers, and a replay hands each repetition one of them (docs/cassettes.md)."""
    (tmp_path / "agents.yml").write_text(HEAD + """agents:
  - name: sums
    models: [gpt-4o]
    servers: [ex]
    prompt: "What is 2 + 3?"
    repeat: 3
    min_pass_rate: 0.5
    min_pass_rate_on: estimate
    expect: [{target: final, matcher: {contains: "= 5"}}]
""", encoding="utf-8")  # the shared server: six sessions, no server process each
    with JudgeServer() as js:
        js.script("gpt-4o", [Fault.text("2 + 3 = 5."), Fault.text("2 + 3 = 6."),
                             Fault.text("2 + 3 = 5.")])
        done, live = cli(tmp_path, judge_env(js), "--models", "record")
    assert done.returncode == 0, done.stdout + done.stderr
    [tape] = (tmp_path / "cassettes" / "agents").iterdir()
    [request] = json.loads(tape.read_text())["requests"]
    assert sorted(r["content"] for r in request["replies"]) == ["2 + 3 = 5.", "2 + 3 = 5.",
                                                                "2 + 3 = 6."]
    done, replayed = cli(tmp_path, dict(KEYLESS), "--models", "replay")
    assert done.returncode == 0, done.stdout + done.stderr
    assert [(t["status"], t["repeat"]["passed"], t["repeat"]["runs"]) for t in replayed["tests"]
            ] == [(t["status"], t["repeat"]["passed"], t["repeat"]["runs"])
                  for t in live["tests"]] == [("flaky", 2, 3)]
    assert replayed["summary"]["cassettes"]["replayed"] == 3


def test_a_secret_in_the_turns_never_reaches_the_cassette_and_still_replays(tmp_path: Path
                                                                            ) -> None:
    """The server's token (an `{env: …}` value) comes back in a tool answer and the model
    repeats it: the cassette holds `[REDACTED]` in its place, and a replay with another token
    (a rotated secret) answers from it all the same (docs/cassettes.md, "redacted")."""
    shutil.copy(SERVER, tmp_path / "example_server.py")
    (tmp_path / "agents.yml").write_text(f"""
servers:
  ex:
    command: [{json.dumps(sys.executable)}, example_server.py]
    env: {{SERVICE_TOKEN: {{env: EX_TOKEN}}}}
agents:
  - name: greets the token
    models: [gpt-4o]
    servers: [ex]
    prompt: "Greet whoever the service token names."
    expect: [{{target: final, matcher: {{contains: "Hello"}}}}]
""", encoding="utf-8")
    token = "ex-tok-4f9a8b7c6d5e3a2b"
    with JudgeServer() as js:
        js.script("gpt-4o", [ToolCalls(("greet", {"name": token})),
                             Fault.text(f"Done: Hello, {token}!")])
        env = {**judge_env(js), "EX_TOKEN": token}
        done, live = cli(tmp_path, env, "--models", "record")
        assert done.returncode == 0, done.stdout + done.stderr
        assert js.count("gpt-4o") == 2
        # the provider saw the token (the test scripted the model to leak it) …
        assert token in json.dumps(js.requests("gpt-4o")[1]["messages"])
    [tape] = (tmp_path / "cassettes" / "agents").iterdir()
    text = tape.read_text()
    # … the cassette never does, nor the gateway's key
    assert token not in text and "sk-test-gateway-key" not in text
    assert text.count("[REDACTED]") >= 3, text  # the call's arguments, the answer, the final
    done, replayed = cli(tmp_path, {**KEYLESS, "EX_TOKEN": "ex-tok-rotated-9z8y7x6w"},
                         "--models", "replay")
    assert done.returncode == 0, done.stdout + done.stderr
    assert replayed["summary"]["cassettes"]["replayed"] == 2
    assert replayed["tests"][0]["status"] == live["tests"][0]["status"] == "passed"
    assert tape.read_text() == text
