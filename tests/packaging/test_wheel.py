"""The package as users install it: sdist and wheel built with `python -m build`, the wheel
installed into a fresh venv, and `make demo`'s suites run with that install (docs/releasing.md),
by the CLI and as pytest items (docs/python.md).

Slow (one build, one venv with the runtime closure from the session's wheelhouse, no index:
tests/packaging/conftest.py). One xdist group: the module's build and venv are made once.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import tomllib
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import pytest
from support.wheelhouse import offline_env

ROOT = Path(__file__).resolve().parents[2]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
DATA = ("mcptest/schemas/v1.json", "mcptest/schemas/report-v1.json", "mcptest/py.typed")
JUDGE_KEYS = ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY",
              "MISTRAL_API_KEY", "MCPTEST_JUDGE_API_KEY", "MCPTEST_JUDGE_BASE_URL")

pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("wheel")]


def _run(argv: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{argv} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory, wheelhouse: Path) -> Path:
    """bin/ of a fresh venv holding only the built wheel and its dependencies."""
    work = tmp_path_factory.mktemp("wheel")
    dist = work / "dist"
    env = {**os.environ, **offline_env(wheelhouse)}
    _run([sys.executable, "-m", "build", "--sdist", "--wheel", "--outdir", str(dist), str(ROOT)],
         env=env)
    (wheel,) = dist.glob("mcptest-*.whl")
    (sdist,) = dist.glob("mcptest-*.tar.gz")
    assert wheel.name.startswith(f"mcptest-{VERSION}-")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = sorted(p.name for p in (ROOT / "src/mcptest/reporters/templates").iterdir())
    for name in (*DATA, *(f"mcptest/reporters/templates/{t}" for t in templates)):
        assert name in names, f"{name} is missing from {wheel.name}"
    with tarfile.open(sdist) as tar:
        members = {m.split("/", 1)[1] for m in tar.getnames() if "/" in m}
    for name in DATA:
        assert f"src/{name}" in members, f"src/{name} is missing from {sdist.name}"

    venv = work / "venv"
    # without pip (ensurepip: ~3 s of CPU): this environment's pip installs into it
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "-q",
          "--disable-pip-version-check", "-c", str(ROOT / "constraints.txt"), str(wheel)],
         env=env)
    return venv / "bin"


def test_version_agrees_between_script_and_module(installed: Path, tmp_path: Path) -> None:
    script = _run([str(installed / "mcptest"), "--version"], cwd=tmp_path).stdout.strip()
    module = _run([str(installed / "python"), "-m", "mcptest", "--version"],
                  cwd=tmp_path).stdout.strip()
    assert script == module == f"mcptest {VERSION}"
    where = _run([str(installed / "python"), "-c", "import mcptest; print(mcptest.__file__)"],
                 cwd=tmp_path).stdout.strip()
    assert Path(where).is_relative_to(installed.parent), f"imported from {where}, not the venv"


def test_packaged_schema_is_the_published_one(installed: Path, tmp_path: Path) -> None:
    out = _run([str(installed / "mcptest"), "schema"], cwd=tmp_path).stdout
    assert out == (ROOT / "schema" / "v1.json").read_text(encoding="utf-8")


def test_demo_suites_run_with_the_installed_wheel(installed: Path, tmp_path: Path) -> None:
    """`examples/demo.sh` (what `make demo` runs) in a copy outside the source tree."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {k: v for k, v in os.environ.items() if k not in JUDGE_KEYS}
    env["BIN"] = str(installed)
    done = subprocess.run(["bash", "examples/demo.sh"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"demo exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    assert "exit code 0" in done.stdout
    for report in ("run.json", "summary.md", "report.html", "mcptest.sarif", "junit.xml"):
        assert (tmp_path / ".mcptest" / "demo" / report).stat().st_size > 0, report


def _example_items(env: dict[str, str]) -> dict[str, list[str]]:
    """What the plugin must collect from examples/: every test mcptest plans in each suite
    (evals included), by its pytest node id, with its tags."""
    from mcptest.plan import build_plan
    from mcptest.suite.load import load_suites

    suites = load_suites(sorted((ROOT / "examples").rglob("*.yml")), env=env)
    plan = build_plan(suites, evals=True)
    return {f"{t.suite.path.relative_to(ROOT / 'examples').as_posix()}::{t.name}": list(t.tags)
            for t in plan.tests}


def test_pytest_runs_the_examples_as_items(installed: Path, tmp_path: Path,
                                           wheelhouse: Path) -> None:
    """`pip install` of the wheel and pytest, then `pytest examples/`: the wheel's `pytest11`
    entry point loads the plugin, which makes every example test an item; tests whose judge
    has no key are skipped, the rest pass; `-k`, `-m` and `--junitxml` work on them."""
    _run([sys.executable, "-m", "pip", "--python", str(installed / "python"), "install", "-q",
          "--disable-pip-version-check",
          f"pytest=={pytest.__version__}"], env={**os.environ, **offline_env(wheelhouse)})
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    env = {k: v for k, v in os.environ.items()
           if k not in JUDGE_KEYS and not k.startswith(("MCPTEST_", "PYTEST_"))}
    every = _example_items(env)
    # examples/pytest.ini leaves out the tests that fail on purpose (`-m "not expected-failure"`)
    expected = {k: tags for k, tags in every.items() if "expected-failure" not in tags}

    def pytest_examples(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([str(installed / "pytest"), "examples/", "-p", "no:cacheprovider",
                               *args], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=900, check=False)

    listed = pytest_examples("--collect-only", "-q")
    assert listed.returncode == 0, listed.stdout + listed.stderr
    assert [line for line in listed.stdout.splitlines() if "::" in line] == list(expected)

    done = pytest_examples("-rs", "--strict-markers", "--junitxml=junit.xml")
    assert done.returncode == 0, done.stdout + done.stderr
    suite = ET.parse(tmp_path / "junit.xml").getroot().find("testsuite")
    assert suite is not None
    cases = list(suite.iter("testcase"))
    assert len(cases) == len(expected) and suite.get("failures") == suite.get("errors") == "0"
    status = {c.get("name"): c.find("properties/property[@name='mcptest_status']").get("value")
              for c in cases}  # type: ignore[union-attr]
    skipped = [c for c in cases if c.find("skipped") is not None]
    assert {status[c.get("name")] for c in skipped} == {"deferred"}  # no key: not judged
    assert all("deferred: " in (c.find("skipped").get("message") or "")  # type: ignore[union-attr]
               for c in skipped)
    assert 0 < len(skipped) < len(cases)
    assert all(status[c.get("name")] == "passed" for c in cases if c not in skipped)

    greet = [k for k in expected if "greet" in k.split("::")[1].lower()]
    selected = pytest_examples("-k", "greet", "-q")
    assert selected.returncode == 0, selected.stdout + selected.stderr
    assert f"{len(greet)} passed, {len(every) - len(greet)} deselected" in selected.stdout

    smoke = [k for k, tags in expected.items() if "smoke" in tags]
    marked = pytest_examples("-m", "smoke", "-q", "--strict-markers")
    assert marked.returncode == 0, marked.stdout + marked.stderr
    assert f"{len(smoke)} passed" in marked.stdout and len(smoke) >= 2
