"""Fixtures for reporter tests: golden files and the npm-shipped consumers that validate output.

The npm tools are pinned in tests/tools/package.json and prepared by `.ci/prepare-tools.sh`
(make test and .ci/run call it); a test never installs them (`support.tools`).
"""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from support import tools
from support.tools import node_modules

REPO = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
DATA = REPO / "tests" / "data"
NPM_PACKAGES = ("@microsoft/sarif-multitool", "tap-parser")
UPDATE_ENV = "MCPTEST_UPDATE_GOLDEN"


@pytest.fixture(scope="session")
def npm_modules() -> Path:
    """`node_modules` holding tap-parser and the SARIF Multitool (prepared, never installed
    here: `tests/support/tools.py`)."""
    found = {node_modules(name) for name in NPM_PACKAGES}  # every one must be prepared
    return found.pop()


@pytest.fixture(scope="session")
def tap_parser(npm_modules: Path) -> Path:
    """The `tap-parser` command."""
    return npm_modules / ".bin" / "tap-parser"


@pytest.fixture(scope="session")
def sarif_multitool(npm_modules: Path) -> Path:
    """The native Sarif.Multitool binary inside the npm package.

    Called directly, not through the package's `bin.js`, which runs it with `shell: true` and so
    splits `--rule-kind Gh;Sarif` at the semicolon.
    """
    binary = npm_modules / "@microsoft" / "sarif-multitool-linux" / "Sarif.Multitool"
    assert binary.is_file(), f"missing {binary} (only the linux build is wired up here)"
    mode = binary.stat().st_mode
    if not mode & stat.S_IXUSR:  # npm may skip the package's chmod install script
        binary.chmod(mode | stat.S_IXUSR)
    return binary


@pytest.fixture
def golden() -> Callable[[str, str], None]:
    """Compare text with `golden/<name>`; `MCPTEST_UPDATE_GOLDEN=1` rewrites it instead."""

    def check(name: str, text: str) -> None:
        path = GOLDEN / name
        if os.environ.get(UPDATE_ENV) == "1":
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            return
        assert path.is_file(), f"no golden file {path}; run with {UPDATE_ENV}=1 to create it"
        with path.open(encoding="utf-8", newline="") as handle:
            expected = handle.read()
        assert text == expected, f"output differs from {path}; {UPDATE_ENV}=1 updates it"

    return check


@pytest.fixture(scope="session")
def chromium() -> str:
    """Debian's chromium, prepared by .ci/prepare-tools.sh in CI (a test installs nothing)."""
    return tools.chromium()
