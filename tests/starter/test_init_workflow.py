"""The workflow `mcptest init --ci` writes, run as the Action runs it: its first run is green on
the example server, whose TODO tests fail as written (docs/init.md, "--ci")."""

from __future__ import annotations

import io
import json
import shlex
import sys
from pathlib import Path

import pytest
import yaml
from support.servers import example_command

from mcptest.action.main import run_action
from mcptest.action.outputs import parse_outputs
from mcptest.cli.main import main

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
HOSTILE_SERVERS = ROOT / "tests" / "data" / "hostile_servers"
ACTION_INPUTS = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))["inputs"]


def _action_step(workflow: Path) -> dict:
    steps = yaml.safe_load(workflow.read_text(encoding="utf-8"))["jobs"]["mcptest"]["steps"]
    step: dict = next(s for s in steps if s.get("uses") == "mcptest/action@v1")
    return step


def _run_as_the_action(tmp_path: Path, name: str, workspace: Path, step: dict) -> tuple[int, dict]:
    """The step's `with:` on top of action.yml's defaults as INPUT_* variables, its `env:` with
    the secrets unset (empty, as on a fork), the workspace as the working directory. A push's
    event: nothing is posted (the PR comment is tests/action/test_action_flow.py's), so no
    GitHub stand-in is needed."""
    files = tmp_path / name
    files.mkdir()
    (files / "event.json").write_text('{"ref": "refs/heads/main"}', encoding="utf-8")
    (files / "output").touch()
    env = {"GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_REPOSITORY": "octo/repo",
           "GITHUB_EVENT_NAME": "push", "GITHUB_EVENT_PATH": str(files / "event.json"),
           "GITHUB_OUTPUT": str(files / "output"), "GITHUB_WORKSPACE": str(workspace),
           "GITHUB_API_URL": "http://127.0.0.1:9", "PATH": "/usr/bin:/bin"}
    env.update({f"INPUT_{key.upper()}": str(spec.get("default", ""))
                for key, spec in ACTION_INPUTS.items()})
    env["INPUT_GITHUB-TOKEN"] = "ghs_unused"
    env.update({f"INPUT_{key.upper()}": str(value) for key, value in step["with"].items()})
    env.update({key: "" for key in step.get("env", {})})
    code = run_action(env, io.StringIO(), workspace=workspace)
    outputs = parse_outputs((files / "output").read_text(encoding="utf-8"))
    assert outputs["exit-code"] == str(code)
    report = json.loads((workspace / outputs["report-json"]).read_text(encoding="utf-8"))
    return code, report


def test_the_init_workflow_is_green_where_its_todo_tests_fail(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    assert main(["init", "--command", shlex.join(example_command()),
                 "--output", "tests/mcp/ex.yml", "--ci"]) == 0
    said = capsys.readouterr().err
    assert ("13 test(s) for 12 tool(s), 1 resource(s) and 1 prompt(s); 12 marked TODO; 1 "
            "destructive tool(s) written as commented-out tests, not called") in said
    assert "every test is marked TODO" not in said
    # the file's own header counts the same tests (it counted the commented-out one too)
    assert "The 12 test(s) tagged `todo` need you" in (repo / "tests" / "mcp" / "ex.yml").read_text(
        encoding="utf-8")
    step = _action_step(repo / ".github" / "workflows" / "mcptest.yml")
    assert step["with"]["skip-tag"] == "todo"

    code, report = _run_as_the_action(tmp_path, "as-written", repo, step)
    assert code == 0
    ran = [t for t in report["tests"] if t["status"] != "skipped"]
    assert ran and all(t["status"] == "passed" and "todo" not in t["tags"] for t in ran)

    step["with"].pop("skip-tag")  # the same suite with every TODO test: one of them fails
    code, report = _run_as_the_action(tmp_path, "without-skip", repo, step)
    assert code == 1
    failed = [t["name"] for t in report["tests"] if t["status"] == "failed"]
    assert failed and all(name.startswith("TODO ") for name in failed)


ONLY_TODO = """import sys
sys.path.insert(0, {folder!r})
from stdio_loop import serve
serve("only-todo", [{{"name": "lookup", "inputSchema": {{
    "type": "object", "required": ["q"], "properties": {{"q": {{"type": "string"}}}}}}}}])
"""
"""A server whose one tool needs an argument init cannot guess: its only test is TODO."""


def test_init_says_when_the_workflow_has_nothing_to_run(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Every test TODO: the workflow's first run selects none (exit 7), and init says so."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "server.py").write_text(ONLY_TODO.format(folder=str(HOSTILE_SERVERS)),
                                    encoding="utf-8")
    monkeypatch.chdir(repo)
    assert main(["init", "--command", shlex.join([sys.executable, "server.py"]),
                 "--output", "tests/mcp/only.yml", "--ci"]) == 0
    said = capsys.readouterr().err
    assert "1 test(s) for 1 tool(s), 0 resource(s) and 0 prompt(s); 1 marked TODO\n" in said
    assert ("every test is marked TODO, so the workflow's `skip-tag: todo` leaves none to run: "
            "its runs end with exit 7") in said
    step = _action_step(repo / ".github" / "workflows" / "mcptest.yml")
    assert _run_as_the_action(tmp_path, "as-written", repo, step)[0] == 7
