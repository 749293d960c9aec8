"""A GitHub-like environment for the Action's tests, in a temporary workspace (imported by name:
`from support.action_env import …`; several test folders have a `conftest`)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from mcptest.action.outputs import parse_outputs
from support.github_events import pull_request_event

PR = 7
REPO = "octo/repo"
TOKEN = "ghs_loopbackTOKEN1234567890"


@dataclass
class Runner:
    """Paths and variables GitHub gives a Docker action's step, rooted in a temp dir."""

    workspace: Path
    env: dict[str, str]

    @property
    def outputs(self) -> dict[str, str]:
        return parse_outputs(Path(self.env["GITHUB_OUTPUT"]).read_text())

    @property
    def summary(self) -> str:
        return Path(self.env["GITHUB_STEP_SUMMARY"]).read_text()

    def inputs(self, **values: str) -> None:
        for key, value in values.items():
            self.env[f"INPUT_{key.upper().replace('_', '-')}"] = value


def new_runner(root: Path) -> Runner:
    """A workspace, a pull_request event file and empty output/summary files under `root`."""
    workspace = root / "workspace"
    files = root / "file_commands"
    workspace.mkdir()
    files.mkdir()
    event = root / "event.json"
    event.write_text(json.dumps(pull_request_event(PR)))
    (files / "output").touch()
    (files / "summary.md").touch()
    env = {
        "GITHUB_ACTIONS": "true", "CI": "true", "GITHUB_REPOSITORY": REPO,
        "GITHUB_EVENT_NAME": "pull_request", "GITHUB_EVENT_PATH": str(event),
        "GITHUB_OUTPUT": str(files / "output"), "GITHUB_STEP_SUMMARY": str(files / "summary.md"),
        "GITHUB_WORKSPACE": str(workspace), "PATH": "/usr/bin:/bin",
        # nothing reaches api.github.com: a test that talks to GitHub sets the loopback server's
        "GITHUB_API_URL": "http://127.0.0.1:9",
        # what action.yml's defaults turn into
        "INPUT_SARIF": "mcptest.sarif", "INPUT_COMMENT": "true", "INPUT_COMMENT-MODE": "update",
        "INPUT_GITHUB-TOKEN": TOKEN, "INPUT_OUTPUT-DIR": "mcptest-results",
        "INPUT_WORKING-DIRECTORY": ".", "INPUT_REQUIRE-JUDGE": "false",
    }
    return Runner(workspace, env)


def live_commands(log: str) -> list[str]:
    """Log lines the runner would execute as workflow commands (stop-commands blocks skipped)."""
    live: list[str] = []
    token: str | None = None
    for line in log.splitlines():
        if token is not None:
            token = None if line == f"::{token}::" else token
        elif m := re.match(r"^::stop-commands::(.+)$", line):
            token = m[1]
        elif line.startswith("::"):
            live.append(line)
    return live
