"""The release workflow and every workflow of this repository: actionlint-clean, building with
the script .ci/run builds with, and rewriting action.yml to the pushed image (docs/releasing.md).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from support.actionlint import actionlint, assert_lints_clean

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))
RELEASE = ROOT / ".github" / "workflows" / "release.yml"


def _release_action():  # .ci/ is not a package: load the script as the workflow runs it
    spec = importlib.util.spec_from_file_location("release_action", ROOT / ".ci/release_action.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_every_workflow_passes_actionlint() -> None:
    assert RELEASE in WORKFLOWS
    assert_lints_clean(*WORKFLOWS)


@pytest.mark.slow
def test_actionlint_does_find_mistakes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    permissions:\n"
                   "      packagez: write\n    steps:\n      - run: echo ${{ github.evnt }}\n")
    kinds = {f["kind"] for f in actionlint(bad)}
    assert {"expression", "permissions"} <= kinds


def _steps() -> list[dict]:
    workflow = yaml.safe_load(RELEASE.read_text(encoding="utf-8"))
    assert workflow[True]["push"]["tags"] == ["v[0-9]+.[0-9]+.[0-9]+"]  # `on:` is YAML 1.1 true
    (job,) = workflow["jobs"].values()
    assert {"packages": "write", "id-token": "write", "attestations": "write"}.items() <= \
        job["permissions"].items()
    return job["steps"]


def test_release_builds_both_architectures_with_the_ci_script_and_attests() -> None:
    steps = _steps()
    build = next(s for s in steps if s.get("id") == "build")
    assert build["run"].startswith("bash .ci/build-image.sh ")
    assert '"$IMAGE:$VERSION" "$IMAGE:$MAJOR"' in build["run"]
    assert build["env"]["PLATFORMS"] == "linux/amd64,linux/arm64"
    assert build["env"]["PUSH"] == "true"
    uses = [s.get("uses", "") for s in steps]
    assert uses.index("docker/login-action@v3") < steps.index(build)
    attest = next(s for s in steps if s.get("uses", "").startswith("actions/attest-build-prov"))
    assert attest["with"]["subject-digest"] == "${{ steps.build.outputs.digest }}"
    # .ci/run builds the image with the very same script (host architecture, no push)
    e2e = (ROOT / ".ci" / "docker-e2e.sh").read_text(encoding="utf-8")
    assert "PUSH=false bash .ci/build-image.sh" in e2e
    rewrite = steps[-1]["run"]
    assert 'python3 .ci/release_action.py "$IMAGE:$VERSION" action.yml' in rewrite


def test_release_action_yml_runs_the_pushed_image(tmp_path: Path) -> None:
    action = tmp_path / "action.yml"
    original = (ROOT / "action.yml").read_text(encoding="utf-8")
    action.write_text(original, encoding="utf-8")
    done = subprocess.run([sys.executable, str(ROOT / ".ci/release_action.py"),
                           "ghcr.io/mcptest/action:v1.2.3", str(action)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    before, after = yaml.safe_load(original), yaml.safe_load(action.read_text(encoding="utf-8"))
    assert before["runs"] == {"using": "docker", "image": "Dockerfile"}  # main keeps building
    assert after["runs"] == {"using": "docker", "image": "docker://ghcr.io/mcptest/action:v1.2.3"}
    assert {k: v for k, v in after.items() if k != "runs"} == \
        {k: v for k, v in before.items() if k != "runs"}


@pytest.mark.parametrize("image", ["ghcr.io/McpTest/action:v1.2.3", "ghcr.io/mcptest/action:1.2.3",
                                   "ghcr.io/mcptest/action:v1", "action:v1.2.3"])
def test_release_action_refuses_other_references(image: str) -> None:
    with pytest.raises(ValueError, match="reference"):
        _release_action().rewrite((ROOT / "action.yml").read_text(encoding="utf-8"), image)


def test_release_action_refuses_an_action_yml_without_the_dockerfile_line() -> None:
    text = (ROOT / "action.yml").read_text(encoding="utf-8").replace(
        "image: Dockerfile", "image: docker://ghcr.io/mcptest/action:v1.0.0")
    with pytest.raises(ValueError, match="exactly one"):
        _release_action().rewrite(text, "ghcr.io/mcptest/action:v1.2.3")
