"""The workflow `mcptest init --ci` writes, run as the Action runs it: its first run is green on
the example server, whose TODO tests fail as written (docs/init.md, "--ci")."""

from __future__ import annotations

import io
import json
import shlex
from pathlib import Path

import pytest
import yaml
from support.servers import example_command

from mcptest.action.main import run_action
from mcptest.action.outputs import parse_outputs
from mcptest.cli.main import main

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
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
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = tmp_path / "repo"
    repo.mkdir()
    monkeypatch.chdir(repo)
    assert main(["init", "--command", shlex.join(example_command()),
                 "--output", "tests/mcp/ex.yml", "--ci"]) == 0
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
