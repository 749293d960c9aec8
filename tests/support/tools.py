"""External tools the tests use, found where `.ci/prepare-tools.sh` put them; never installed by
a test. Missing locally → skip with the reason and the command that prepares them; missing in CI
(`CI` set) → fail, so CI never passes by skipping."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NoReturn

import pytest

REPO = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO / "tests" / "tools" / "node_modules"
PREPARE = "bash .ci/prepare-tools.sh"


def missing(what: str) -> NoReturn:
    message = f"{what} is not prepared; run `{PREPARE}` (make test and .ci/run do)"
    if os.environ.get("CI"):
        pytest.fail(message)
    pytest.skip(message)


def node_modules(package: str) -> Path:
    """`tests/tools/node_modules`, holding `package` (a name of tests/tools/package.json)."""
    if not (NODE_MODULES / package / "package.json").is_file():
        missing(f"the npm package {package}")
    return NODE_MODULES


def chromium() -> str:
    found = shutil.which("chromium")
    if found is None:
        missing("Debian's chromium")
    return found
