"""Fixtures for the Action's tests: a GitHub-like environment in a temporary workspace."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.action_env import PR, REPO, TOKEN, Runner, new_runner

__all__ = ["PR", "REPO", "TOKEN", "Runner", "runner"]


@pytest.fixture
def runner(tmp_path: Path) -> Runner:
    return new_runner(tmp_path)
