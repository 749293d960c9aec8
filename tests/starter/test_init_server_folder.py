"""The suite `mcptest init` writes starts its stdio server as `init` did wherever it is run from:
the server runs in the folder `init` ran in, written as `cwd:` relative to the suite's folder
(docs/init.md, "Where the server runs")."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
from pathlib import Path

import pytest
import yaml
from support.servers import EXAMPLE_SERVER

from mcptest.cli.main import main

pytestmark = pytest.mark.slow

SERVER = "examples/server/example_server.py"
SCRIPT = f"#!/bin/sh\nexec {shlex.quote(sys.executable)} {SERVER}\n"
"""A `./` program that itself reads a path relative to its working directory."""


@pytest.mark.parametrize(("command", "output", "written"), [
    (shlex.join([sys.executable, SERVER]), "tests/mcp/example.yml",
     {"command": [sys.executable, SERVER], "cwd": "../.."}),
    ("./bin/serve --stdio", "tests/mcp/example.yml",
     {"command": ["../../bin/serve", "--stdio"], "cwd": "../.."}),
    (shlex.join([sys.executable, SERVER]), "example.yml",
     {"command": [sys.executable, SERVER], "cwd": "."}),
])
def test_the_written_suite_runs_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, output: str,
        written: dict[str, object]) -> None:
    repo, elsewhere = tmp_path / "repo", tmp_path / "elsewhere"
    (repo / "examples" / "server").mkdir(parents=True)
    elsewhere.mkdir()
    shutil.copy(EXAMPLE_SERVER, repo / SERVER)
    (repo / "bin").mkdir()
    (repo / "bin" / "serve").write_text(SCRIPT, encoding="utf-8")
    (repo / "bin" / "serve").chmod(0o755)
    monkeypatch.chdir(repo)
    assert main(["init", "--command", command, "--output", output]) == 0
    suite = repo / output
    (server,) = yaml.safe_load(suite.read_text(encoding="utf-8"))["servers"].values()
    assert {key: server[key] for key in written} == written

    for folder, path in ((suite.parent, suite.name), (elsewhere, str(suite))):
        monkeypatch.chdir(folder)
        report = folder / "run.json"
        code = main(["run", path, "--skip-tag", "todo", "--reporter", "json",
                     "--output", str(report)])
        tests = json.loads(report.read_text(encoding="utf-8"))["tests"]
        assert code == 0, [(t["name"], t.get("message")) for t in tests]
        assert [t["status"] for t in tests] == ["passed"]  # the resource test; the rest are TODO
