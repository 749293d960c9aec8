"""action.yml agrees with what the code reads and writes."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import yaml
from reports import make_report
from support.action_env import Runner

from mcptest.action.inputs import ActionInputs, read_inputs
from mcptest.action.main import run_action

ROOT = Path(__file__).resolve().parents[2]
META = yaml.safe_load((ROOT / "action.yml").read_text())
FAKE_CLI = (sys.executable, str(Path(__file__).parent / "data" / "fake_cli.py"))


def test_docker_action_built_from_the_dockerfile() -> None:
    assert META["runs"] == {"using": "docker", "image": "Dockerfile"}
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    instructions = [line.split()[0] for line in lines if line.strip() and line[0].isupper()]
    assert "WORKDIR" not in instructions and "USER" not in instructions
    assert not any(line.startswith("# syntax=") for line in lines)
    assert instructions[-1] == "ENTRYPOINT"


def test_every_input_is_a_model_field_and_described() -> None:
    names = {name.replace("-", "_") for name in META["inputs"]}
    assert names == set(ActionInputs.model_fields)
    assert all(spec["description"].strip() for spec in META["inputs"].values())


def test_defaults_as_the_runner_passes_them_are_valid() -> None:
    env = {f"INPUT_{name.upper()}": str(spec.get("default", "")) for name, spec in
           META["inputs"].items()}
    env["INPUT_SUITES"] = "a.yml"
    got = read_inputs(env)
    assert got.sarif == "mcptest.sarif" and got.comment_mode == "update"
    assert got.github_token == "${{ github.token }}"  # the runner substitutes it


def test_every_output_is_written(runner: Runner) -> None:
    data = {"exit_code": 0, "report": make_report(["passed"]).model_dump(mode="json")}
    (runner.workspace / "s.json").write_text(json.dumps(data))
    runner.inputs(suites="s.json", comment="false")
    run_action(runner.env, io.StringIO(), cli=FAKE_CLI, workspace=runner.workspace)
    assert set(runner.outputs) == set(META["outputs"])
    assert all(spec["description"].strip() for spec in META["outputs"].values())
