"""`support.cli_inproc.cli` answers as the `mcptest` process does, and leaves nothing behind:
the tests that use it instead of a subprocess rely on both."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli
from support.cli_run import REPO, mcptest

BASICS = REPO / "examples" / "basics.yml"
SUITE = """variables:
  who: {from_env: WHO}
servers:
  s: {command: [python3, server.py]}
tools:
  - {name: t, server: s, tool: x, args: {name: "${who}"}}
"""


@pytest.mark.slow  # one `python -m mcptest` per command, to compare with
@pytest.mark.parametrize("argv", [
    ["validate", str(BASICS)],
    ["validate", "missing.yml"],
    ["report", "--format", "nope", "x.json"],
    ["--version"],
    ["schema", "--report"],
], ids=["valid", "missing-file", "usage-error", "version", "schema"])
def test_in_process_matches_the_process(argv: list[str], tmp_path: Path) -> None:
    ran, process = cli(*argv, cwd=tmp_path), mcptest(*argv, cwd=tmp_path)
    assert (ran.returncode, ran.stdout, ran.stderr) == (
        process.returncode, process.stdout, process.stderr)


def test_the_environment_and_directory_are_the_calls_own_and_put_back(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    before = (dict(os.environ), os.getcwd(), sys.stdout, sys.stderr)
    unset = cli("validate", "suite.yml", cwd=tmp_path)
    assert unset.returncode == 2 and "WHO" in unset.stderr, unset
    named = cli("validate", "suite.yml", cwd=tmp_path, env={"WHO": "Ada"})
    assert named.returncode == 0, named.stderr
    assert "WHO" not in os.environ or before[0].get("WHO") == os.environ["WHO"]
    assert (dict(os.environ), os.getcwd(), sys.stdout, sys.stderr) == before


def test_provider_keys_are_not_passed_on(tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """As the subprocess helper: a developer's key never reaches a command under test."""
    monkeypatch.setenv("OPENAI_API_KEY", "sk-developer")
    (tmp_path / "suite.yml").write_text(SUITE.replace("WHO", "OPENAI_API_KEY"),
                                        encoding="utf-8")
    assert cli("validate", "suite.yml", cwd=tmp_path).returncode == 2
    assert os.environ["OPENAI_API_KEY"] == "sk-developer"
