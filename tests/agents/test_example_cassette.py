"""examples/replay.yml and its committed cassette (docs/cassettes.md): recording it again with
the same answers gives the committed bytes (a cassette is deterministic), and it replays with
no key at all, as `make demo` and the docs run it. MCPTEST_UPDATE_GOLDEN=1 records it again
(after a change to the example server's tools or to the suite)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
from support.cli_run import KEYLESS, REPO, mcptest
from support.judge_server import Fault, JudgeServer, ToolCalls, Verdict

pytestmark = pytest.mark.slow  # the CLI and the example server, twice

SUITE = REPO / "examples" / "replay.yml"
COMMITTED = REPO / "examples" / "cassettes" / "replay"


def test_recording_again_gives_the_committed_cassette(tmp_path: Path) -> None:
    with JudgeServer() as js:
        js.script("gpt-4o-mini", [ToolCalls(("add", {"a": 2, "b": 3})),
                                  Fault.text("2 + 3 = 5.")])
        js.script("anthropic/claude-haiku-4-5", [Verdict(score=0.9, reason="It states 5.")])
        done = mcptest("run", SUITE, "--models", "record", "--cassette-dir", tmp_path,
                       env={**js.gateway_env(), "MCPTEST_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    [recorded] = (tmp_path / "replay").iterdir()
    if os.environ.get("MCPTEST_UPDATE_GOLDEN") == "1":
        shutil.rmtree(COMMITTED, ignore_errors=True)
        COMMITTED.mkdir(parents=True)
        shutil.copy(recorded, COMMITTED / recorded.name)
    [committed] = COMMITTED.iterdir()
    assert committed.name == recorded.name
    assert committed.read_bytes() == recorded.read_bytes(), (
        "examples/cassettes/replay/ is stale; MCPTEST_UPDATE_GOLDEN=1 records it again")


def test_the_example_replays_with_no_key() -> None:
    done = mcptest("run", SUITE, "--models", "replay", "--reporter", "pretty",
                   env={**KEYLESS, "MCPTEST_PYTHON": sys.executable})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 passed" in done.stdout
    assert ("model cassettes (replay): 3 answer(s) replayed, 0 recorded live, 0 file(s) "
            "written") in done.stdout
