"""Fixtures for reporter tests: golden files and the npm-shipped consumers that validate output.

npm tools install once into `.cache/npm-tools` (git-ignored) on first use. Tests that need them
skip only when npm itself is missing; a failed install or a tool that will not run fails.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOOLS = REPO / ".cache" / "npm-tools"
GOLDEN = Path(__file__).resolve().parent / "golden"
DATA = REPO / "tests" / "data"
NPM_PACKAGES = {
    "@microsoft/sarif-multitool": "5.7.0",
    "tap-parser": "18.3.4",
}
UPDATE_ENV = "MCPTEST_UPDATE_GOLDEN"


def _install_npm_tools() -> Path:
    npm = shutil.which("npm")
    if npm is None:
        pytest.skip("npm is not installed")
    wanted = [f"{name}@{version}" for name, version in NPM_PACKAGES.items()]
    missing = [
        spec for spec, name in zip(wanted, NPM_PACKAGES, strict=True)
        if not (TOOLS / "node_modules" / name / "package.json").is_file()
    ]
    if missing:
        TOOLS.mkdir(parents=True, exist_ok=True)
        done = subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(TOOLS), *wanted],
            capture_output=True, text=True, timeout=600, check=False,
        )
        assert done.returncode == 0, f"npm install failed:\n{done.stderr[-3000:]}"
    return TOOLS / "node_modules"


@pytest.fixture(scope="session")
def npm_modules() -> Path:
    """`node_modules` holding tap-parser and the SARIF Multitool."""
    return _install_npm_tools()


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
