"""README.md's "Install into your own project", line by line: each `pip`, `pipx` and `uv tool`
line runs as written, from a copy of the repository, in a fresh environment of its own (a new
venv, or a pipx home and a uv tool folder in the test's tmp, never the machine's), after the
block's own `python -m build --wheel`; then the README's next block (`mcptest --version`,
`init` and `run --skip-tag todo` on the example server) runs with the `mcptest` that line
installed. pipx and uv come into a venv of the test's own. Every install takes its wheels from the
session's wheelhouse with no index (tests/packaging/conftest.py): one download per session.

Slow: every line resolves and installs mcptest's dependencies. One xdist group: the module's
clone (with its wheel build) and tools venv are made once, on one worker.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from support.doc_blocks import REPO, Block, blocks, commands
from support.wheelhouse import offline_env

VERSION = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
WHEEL = f"dist/mcptest-{VERSION}-py3-none-any.whl"
SECTION = "tests/packaging/test_install_paths.py runs each"


def _install_blocks() -> list[Block]:
    found = [b for b in blocks(REPO / "README.md") if SECTION in b.notes.get("skip", "")]
    assert len(found) == 2, "README.md: the two install blocks (repository, wheel)"
    return found


def _then_block() -> list[str]:
    """The README's commands after the install blocks: what to run with the installed CLI."""
    every = blocks(REPO / "README.md")
    last = max(every.index(b) for b in _install_blocks())
    after = next(b for b in every[last + 1:] if b.lang == "sh" and not b.notes)
    return commands(after.text)


EVERY_LINE = [line for b in _install_blocks() for line in commands(b.text)
              if not line.startswith("python -m build")]
INSTALLS = [line for line in EVERY_LINE if not (
    line.startswith("pip install") and "[pytest]" not in line)]
"""Each line but plain `pip install` of the repository and of the wheel: the `[pytest]` line of
each installs the same way and more (each pip line takes minutes on a busy 2-core machine)."""


def _run(command: str, cwd: Path, env: dict[str, str],
         timeout: float = 900) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{command!r} exited {done.returncode}:\n{done.stdout}\n" \
                                 f"{done.stderr[-4000:]}"
    return done


def _base_env(wheelhouse: Path) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items()
               if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")
               and not k.startswith(("MCPTEST_", "PYTEST_", "PIPX_", "UV_"))
               and not k.endswith(("_API_KEY", "_BASE_URL", "_API_BASE"))},
            **offline_env(wheelhouse)}


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """The repository's files (what git knows) with the README's wheel built in `dist/`."""
    dest = tmp_path_factory.mktemp("install") / "clone"
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=REPO, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (REPO / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            try:
                shutil.copy2(REPO / name, dest / name)
            except FileNotFoundError:  # an untracked file gone since the listing: `make test`
                continue               # runs lint beside the tests, and its caches change
    build = next(line for b in _install_blocks() for line in commands(b.text)
                 if line.startswith("python -m build"))
    env = _base_env(wheelhouse)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env['PATH']}"  # `build`: dev extra
    _run(build, dest, env)
    assert (dest / WHEEL).is_file(), f"README.md names {WHEEL}, the build wrote " \
                                     f"{[p.name for p in (dest / 'dist').iterdir()]}"
    return dest


@pytest.fixture(scope="module")
def tools(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """bin/ of a venv of the test's own holding pipx and uv."""
    venv = tmp_path_factory.mktemp("tools") / "venv"
    # without pip of its own (ensurepip: ~3 s of CPU): this environment's pip installs into it
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    _run(f"{sys.executable} -m pip --python {venv / 'bin' / 'python'} install -q pipx uv", venv,
         _base_env(wheelhouse))
    return venv / "bin"


def test_the_readme_names_every_install_path() -> None:
    starts = {" ".join(line.split()[:2]) for line in INSTALLS}
    assert starts == {"pip install", "pipx install", "uv tool"}
    wheel = [line for line in INSTALLS if WHEEL.split("/")[1] in line]
    assert {" ".join(line.split()[:2]) for line in wheel} == starts  # each tool, from the wheel
    assert any("[pytest]" in line for line in wheel)
    for plain in set(EVERY_LINE) - set(INSTALLS):  # run through its [pytest] twin
        assert any(line.startswith("pip install") and "[pytest]" in line
                   and (WHEEL.split("/")[1] in line) == (WHEEL.split("/")[1] in plain)
                   for line in INSTALLS), plain


@pytest.mark.slow
@pytest.mark.xdist_group("install-paths")
@pytest.mark.parametrize("line", INSTALLS)
def test_an_install_line_gives_a_working_mcptest(
    line: str, clone: Path, tools: Path, tmp_path: Path, wheelhouse: Path,
) -> None:
    env = _base_env(wheelhouse)
    home = tmp_path / "home"
    bindir = tmp_path / "bin"  # where pipx and uv put `mcptest`; a venv's bin for pip
    bindir.mkdir()
    if line.startswith("pip "):
        venv = tmp_path / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        bindir = venv / "bin"
    else:
        env.update(PIPX_HOME=str(home / "pipx"), PIPX_BIN_DIR=str(bindir),
                   PIPX_MAN_DIR=str(home / "man"), UV_TOOL_DIR=str(home / "uv-tools"),
                   UV_TOOL_BIN_DIR=str(bindir), UV_PYTHON=sys.executable,
                   UV_PYTHON_DOWNLOADS="never", PIPX_DEFAULT_PYTHON=sys.executable)
    env["PATH"] = os.pathsep.join([str(bindir), str(tools), "/usr/local/bin", "/usr/bin", "/bin"])
    _run(line, clone, env)
    assert (bindir / "mcptest").is_file(), f"{line!r} put no mcptest in {bindir}"

    # a project of one's own: the example server, and `python` able to run it (an MCP SDK)
    project = tmp_path / "project"
    shutil.copytree(clone / "examples", project / "examples")
    shims = tmp_path / "shims"
    shims.mkdir()
    if not (bindir / "python").exists():  # pipx, uv: the user's own python runs their server
        (shims / "python").write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
        (shims / "python").chmod(0o755)
    env["PATH"] = os.pathsep.join([str(bindir), str(shims), "/usr/local/bin", "/usr/bin", "/bin"])
    outputs = [_run(command, project, env, timeout=300) for command in _then_block()]
    assert outputs[0].stdout.strip() == f"mcptest {VERSION}"
    assert (project / "tests" / "mcp" / "example.yml").is_file()
    assert "passed" in outputs[-1].stdout.splitlines()[-3]
    where = _run("command -v mcptest", project, env).stdout.strip()
    assert Path(where).parent == bindir, where
    if "[pytest]" in line:  # the extra brings pytest, and the plugin is registered in it
        plugins = _run(f"{bindir / 'python'} -m pytest -VV", project, env)
        assert f"mcptest-{VERSION}" in plugins.stdout + plugins.stderr


def test_make_demo_installs_the_pytest_extra() -> None:
    """docs/python.md's `python -m pytest examples/` after `make demo` (issue 37: a global pytest
    without the plugin was picked up): the demo's venv gets the `pytest` extra."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert any(d.startswith("pytest") for d in project["optional-dependencies"]["pytest"])
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    recipe = makefile.split("$(VENV)/.installed:", 1)[1].split("\n\n", 1)[0]
    assert "-e '.[pytest]'" in recipe
    for page in ("docs/python.md", "examples/README.md"):
        lines = [line for b in blocks(REPO / page) if b.lang == "sh" for line in commands(b.text)]
        assert not [line for line in lines if line.startswith("pytest ")], page
