"""Fixtures for the Action's tests: a GitHub-like environment in a temporary workspace."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.action_env import PR, REPO, TOKEN, Runner

__all__ = ["PR", "REPO", "TOKEN", "Runner", "runner"]


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    workspace = tmp_path / "workspace"
    files = tmp_path / "file_commands"
    workspace.mkdir()
    files.mkdir()
    event = tmp_path / "event.json"
    event.write_text(json.dumps({"action": "synchronize", "number": PR,
                                 "pull_request": {"number": PR, "head": {"ref": "feature"}}}))
    (files / "output").touch()
    (files / "summary.md").touch()
    env = {
        "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(files / "output"), "GITHUB_STEP_SUMMARY": str(files / "summary.md"),
        "GITHUB_WORKSPACE": str(workspace), "PATH": "/usr/bin:/bin",
        # what action.yml's defaults turn into
        "INPUT_SARIF": "mcptest.sarif", "INPUT_COMMENT": "true", "INPUT_COMMENT-MODE": "update",
        "INPUT_GITHUB-TOKEN": TOKEN, "INPUT_OUTPUT-DIR": "mcptest-results",
        "INPUT_WORKING-DIRECTORY": ".", "INPUT_REQUIRE-JUDGE": "false",
    }
    return Runner(workspace, env)
