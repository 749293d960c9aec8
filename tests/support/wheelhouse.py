"""What the packaging tests install from: one wheelhouse, kept in the user's cache between
sessions (the `wheelhouse` fixture of tests/packaging/conftest.py).

Every install in these tests (the README's pip, pipx and uv lines, `python -m build`'s isolated
build environment, the wheel test's venv, the tools venv) resolved mcptest's whole runtime
closure from the package index and byte-compiled it: a download of ~140 MB and ~20 s of CPU
each, seven or more times per session. Here the closure (pinned by constraints.txt), the build
backend, pytest, pipx and uv are downloaded once, by the first worker that needs them (the
others wait on a lock and reuse the folder; the folder is kept in the user's cache for the
next session, `cache_folder`), and every install then runs with no index
(`PIP_NO_INDEX`, `UV_NO_INDEX`) against that folder and writes no bytecode. What each test
checks is unchanged: every line still resolves mcptest's declared dependencies and builds or
installs the package as written; only where the files come from, and the .pyc files Python
writes on first import anyway, differ.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _requirements() -> tuple[list[str], list[str]]:
    """(the closure's top-level requirements, pinned through constraints.txt; the build backend,
    unpinned: constraints.txt pins the runtime's setuptools below what the backend needs)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    runtime = [*project["project"]["dependencies"],
               *project["project"]["optional-dependencies"]["pytest"],
               f"pytest=={pytest.__version__}", "pipx", "uv"]
    return runtime, list(project["build-system"]["requires"])


def offline_env(wheelhouse: Path) -> dict[str, str]:
    """Environment for pip, pipx, uv and `python -m build`: the wheelhouse, no index, no
    bytecode. (pip reads `PIP_NO_COMPILE` as the value of its `compile` switch: 0 is off.)"""
    return {"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": str(wheelhouse), "PIP_NO_COMPILE": "0",
            "PIP_DISABLE_PIP_VERSION_CHECK": "1", "UV_NO_INDEX": "1",
            "UV_FIND_LINKS": str(wheelhouse)}


def cache_folder() -> Path:
    """Where the wheelhouse is kept between sessions: the user's cache (`XDG_CACHE_HOME`, else
    ~/.cache), keyed by what decides its contents (constraints.txt, pyproject.toml, this pytest
    and Python), so a change to any of them fills a new one. Filling it is ~17 s of CPU and a
    worker's ~20 s (minutes on a busy machine, with the other packaging module waiting on it)."""
    digest = hashlib.sha256()
    for name in ("constraints.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    digest.update(f"{pytest.__version__} {sys.version} {sys.platform}".encode())
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = base / "mcptest-tests" / f"wheelhouse-{digest.hexdigest()[:16]}"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def fill_wheelhouse(shared: Path) -> Path:
    """`shared`/wheelhouse, downloaded by the first caller; the others wait on a lock."""
    folder = shared / "wheelhouse"
    done = folder / ".complete"
    with open(shared / "wheelhouse.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.is_file():
            folder.mkdir(exist_ok=True)
            runtime, build = _requirements()
            pip = [sys.executable, "-m", "pip", "download", "-q", "--disable-pip-version-check",
                   "-d", str(folder)]
            for argv in ([*pip, "-c", str(ROOT / "constraints.txt"), *runtime], [*pip, *build]):
                ran = subprocess.run(argv, capture_output=True, text=True, check=False,
                                     timeout=1200)
                assert ran.returncode == 0, f"{argv} exited {ran.returncode}:\n{ran.stderr}"
            done.touch()
    return folder
