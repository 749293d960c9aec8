"""A GitHub-like environment for the Action's tests, in a temporary workspace (imported by name:
`from support.action_env import …`; several test folders have a `conftest`)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcptest.action.outputs import parse_outputs

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
