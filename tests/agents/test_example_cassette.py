"""The examples with committed cassettes (docs/cassettes.md, docs/selection.md): recording them
again with the same answers gives the committed bytes (a cassette is deterministic), and they
replay with no key at all, as `make demo` and the docs run them. MCPTEST_UPDATE_GOLDEN=1 records
them again (after a change to the example server's tools or to the suites)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import KEYLESS, REPO
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # the CLI and the example server, twice per example

EXAMPLES = REPO / "examples"


def replay_answers(js: JudgeServer) -> None:
    js.script("gpt-4o-mini", [ToolCalls(("add", {"a": 2, "b": 3})), Fault.text("2 + 3 = 5.")])
    js.script("anthropic/claude-haiku-4-5", [Verdict(score=0.9, reason="It states 5.")])


def selection_answers(js: JudgeServer) -> None:
    # a fixed completion count: the stand-in's default counts the call id, which numbers the
    # model's turns in arrival order, and the k samples of a prompt arrive in any order
    def calls(tool: str, args: dict[str, str | int]) -> ToolCalls:
        return ToolCalls((tool, args), completion_tokens=29)

    for asked, steps in (
            ("weather in Oslo", [calls("forecast", {"city": "Oslo"})]),
            ("hi to Ada", [calls("greet", {"name": "Ada"})]),
            ("19 plus 23", [calls("add", {"a": 19, "b": 23})]),
            ("payments team", [calls("search_services", {"query": "payments"})] * 2
             + [calls("explain_error", {"code": "payments"})]),
            ("ERR_RATE_LIMIT", [calls("explain_error", {"code": "ERR_RATE_LIMIT"})])):
        js.script("gpt-4o-mini", steps, candidate=asked)


CASES = {"replay": replay_answers, "selection": selection_answers}


@pytest.mark.parametrize("name", sorted(CASES))
def test_recording_again_gives_the_committed_cassette(tmp_path: Path, name: str) -> None:
    with JudgeServer() as js:
        CASES[name](js)
        done = cli("run", EXAMPLES / f"{name}.yml", "--models", "record",
                       "--cassette-dir", tmp_path,
                       env={**js.gateway_env(), "MCPTEST_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    [recorded] = (tmp_path / name).iterdir()
    committed_dir = EXAMPLES / "cassettes" / name
    if os.environ.get("MCPTEST_UPDATE_GOLDEN") == "1":
        shutil.rmtree(committed_dir, ignore_errors=True)
        committed_dir.mkdir(parents=True)
        shutil.copy(recorded, committed_dir / recorded.name)
    [committed] = committed_dir.iterdir()
    assert committed.name == recorded.name
    assert committed.read_bytes() == recorded.read_bytes(), (
        f"examples/cassettes/{name}/ is stale; MCPTEST_UPDATE_GOLDEN=1 records it again")


def test_the_examples_replay_with_no_key() -> None:
    done = cli("run", EXAMPLES / "replay.yml", EXAMPLES / "selection.yml", "--models",
                   "replay", "--reporter", "pretty",
                   env={**KEYLESS, "MCPTEST_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed of 2" in done.stdout
    assert ("selection 5/5 · accuracy 1.00 [0.57, 1.00] · ties 0 · margin 1 · arguments 6/6 · "
            "k 3") in done.stdout
    assert ("model cassettes (replay): 18 answer(s) replayed, 0 recorded live, 0 file(s) "
            "written") in done.stdout
