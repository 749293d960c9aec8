"""A reader's fresh clone after `make demo`, where the pages' blocks run
(tests/docs/test_doc_examples.py): the repository's files copied to a temporary folder, a
`.venv` of its own (the clone's `src` and the test environment's packages, through a `.pth`
file, and the `mcptest` and `pytest` commands, as after `make test`; no pip, so nothing a block
runs can change the environment the tests run in), `. .venv/bin/activate` before every command, no provider key in the environment,
and npx finding the npm packages `.ci/prepare-tools.sh` prepared (`node_modules` beside the
clone, `NPM_CONFIG_OFFLINE`) instead of downloading them.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from support.tools import NODE_MODULES, REPO, missing

ENGINE = REPO.parent / "shared" / "ci" / "container-engine.sh"
_DROPPED_SUFFIXES = ("_API_KEY", "_BASE_URL", "_API_BASE")


def clone(dest: Path) -> Path:
    """Copy the files git knows (tracked, or new and not ignored) into `dest`."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others",
                             "--exclude-standard"], cwd=REPO, capture_output=True, check=False)
    if listed.returncode == 0:
        names = [n for n in listed.stdout.decode().split("\0") if n]
    else:  # not a git checkout (an unpacked archive): everything but what git would ignore
        skip = {".venv", "node_modules", ".mcptest", ".git", "__pycache__", ".pytest_cache",
                ".ruff_cache", ".mypy_cache", ".hypothesis"}
        names = [p.relative_to(REPO).as_posix() for p in REPO.rglob("*")
                 if p.is_file() and not skip & set(p.relative_to(REPO).parts)]
    for name in names:
        src = REPO / name
        if src.is_file():
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
            if name.startswith("src/") and name.endswith(".py"):
                _bytecode(src, target)
    venv(dest)
    if NODE_MODULES.is_dir():
        (dest / "node_modules").symlink_to(NODE_MODULES)
    return dest


def _bytecode(src: Path, target: Path) -> None:
    """The source's compiled module beside its copy, as a clone that ran mcptest once has it:
    the copy keeps the source's size and time, which the bytecode records, so Python takes it
    (and compiles again if it is stale); without it each page's first command compiled
    mcptest's ~200 modules (~0.3 s of CPU)."""
    cached = Path(importlib.util.cache_from_source(str(src)))
    if cached.is_file():
        into = Path(importlib.util.cache_from_source(str(target)))
        into.parent.mkdir(exist_ok=True)
        shutil.copy2(cached, into)


def venv(clone: Path) -> None:
    """The clone's `.venv`: the clone's code on the test environment's packages."""
    target = clone / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(target)], check=True)
    (site,) = (target / "lib").glob("python3*/site-packages")
    (site / "doc_test.pth").write_text(
        f"{clone / 'src'}\n{sysconfig.get_paths()['purelib']}\n", encoding="utf-8")
    for name, entry in (("mcptest", "mcptest.cli.main:main"), ("pytest", "pytest:main")):
        module, func = entry.split(":")
        script = target / "bin" / name  # what `pip install` writes for a console script
        script.write_text(f"#!{target / 'bin' / 'python'}\nimport sys\nfrom {module} import "
                          f"{func}\nsys.exit({func}())\n", encoding="utf-8")
        script.chmod(0o755)


def demo_plugins() -> list[str]:
    """The pytest plugins (`pytest11` entry points) a `make demo` venv registers: all but those
    of packages only the dev extra brings (pytest-xdist, hypothesis). The clone's venv sees the
    test environment's packages, whose dev-only plugins a reader's venv does not have; loading
    them cost each documented pytest command ~0.9 s of CPU."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    names = {canonicalize_name(Requirement(r).name) for r in extras["dev"]}
    dev_only = names - {canonicalize_name(Requirement(r).name) for r in extras["pytest"]} - {
        canonicalize_name(project["name"])}  # the dev extra names mcptest's own extras
    return sorted({e.value for e in entry_points(group="pytest11")
                   if e.dist is None or canonicalize_name(e.dist.name) not in dev_only})


def reader_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    """The environment of a reader without judge keys (a test's loopback judge adds its own),
    with the pytest plugins of a `make demo` venv (`demo_plugins`)."""
    env = {k: v for k, v in os.environ.items()
           if not k.endswith(_DROPPED_SUFFIXES) and not k.startswith(("MCPTEST_", "PYTEST_"))
           and k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME")}
    env["NPM_CONFIG_OFFLINE"] = "true"
    env["NPM_CONFIG_UPDATE_NOTIFIER"] = "false"
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"
    env["PYTEST_PLUGINS"] = ",".join(demo_plugins())
    return {**env, **(extra or {})}


@dataclass(frozen=True)
class Ran:
    command: str
    code: int
    output: str

    def tail(self, lines: int = 25) -> str:
        return "\n".join(self.output.splitlines()[-lines:])


def sh(root: Path, command: str, env: dict[str, str], timeout: float = 300) -> Ran:
    """One documented command, as typed into a shell whose venv is active."""
    try:
        done = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=root,
                              env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else e.stdout
        return Ran(command, -1, f"{out or ''}\n(timed out after {timeout:g} s)")
    return Ran(command, done.returncode, done.stdout)


# ------------------------------------------------------------------------------------- docker

_DOCKER_VALUE_OPTIONS = {"-v", "--volume", "-w", "--workdir", "-e", "--env", "--network",
                         "--name", "--entrypoint", "-p", "--publish", "--user", "-u"}


def docker_engine() -> str | None:
    """The container engine's client when docker commands run for real: in CI (`CI` set), where
    `.ci/run` has started the engine and built the image; elsewhere None (validated instead)."""
    if not os.environ.get("CI"):
        return None
    if not ENGINE.is_file():
        missing(f"the container engine script {ENGINE}")
    client = subprocess.run(["bash", str(ENGINE), "--client"], capture_output=True, text=True,
                            check=False).stdout.strip()
    if not client or subprocess.run([client, "info"], capture_output=True,
                                    check=False).returncode != 0:
        missing("a running Docker engine (bash ../shared/ci/container-engine.sh)")
    return client


def docker_env(env: dict[str, str], client: str, bindir: Path) -> dict[str, str]:
    """`docker` on PATH is the engine's client, building with BuildKit."""
    bindir.mkdir(parents=True, exist_ok=True)
    link = bindir / "docker"
    if not link.exists():
        link.symlink_to(client)
    return {**env, "PATH": f"{bindir}{os.pathsep}{env.get('PATH', '')}", "DOCKER_BUILDKIT": "1"}


def docker_as_cli(root: Path, command: str) -> str | None:
    """Without an engine: what a docker command would do, checked here. `docker build … DIR`
    needs DIR/Dockerfile (None: nothing to run); `docker run [options] IMAGE ARGS` is the image's
    CLI, so it becomes `mcptest ARGS` (the words after the image, as written)."""
    words = command.split()
    argv = shlex.split(command)
    if argv[:2] == ["docker", "build"]:
        assert (root / argv[-1] / "Dockerfile").is_file(), f"no Dockerfile in {argv[-1]!r}"
        return None
    assert argv[:2] == ["docker", "run"], f"not a docker build or run command: {command}"
    i = 2
    while words[i].startswith("-"):
        i += 2 if words[i] in _DOCKER_VALUE_OPTIONS else 1
    return " ".join(["mcptest", *words[i + 1:]])
