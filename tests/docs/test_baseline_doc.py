"""docs/baseline.md's workflow is one a user can paste: its push job stores the report under the
name `baseline: auto` looks for, and its inputs are the Action's (actionlint checks it in
tests/docs/test_doc_examples.py)."""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from mcptest.action.inputs import ActionInputs

REPO = Path(__file__).resolve().parents[2]


def workflow() -> dict:
    text = (REPO / "docs" / "baseline.md").read_text(encoding="utf-8")
    block = re.search(r"```yaml\n(name: .*?)```", text, re.DOTALL)
    assert block is not None
    return yaml.safe_load(block[1])


def steps(job: dict, uses: str) -> list[dict]:
    return [s for s in job["steps"] if str(s.get("uses", "")).startswith(uses)]


def test_push_job_stores_the_report_the_pull_request_job_finds() -> None:
    flow = workflow()
    assert flow[True] == {"push": {"branches": ["main"]}, "pull_request": None}  # `on:`
    assert flow["permissions"]["actions"] == "read"
    push, pr = flow["jobs"]["baseline"], flow["jobs"]["pull-request"]
    (upload,) = steps(push, "actions/upload-artifact@")
    assert upload["with"]["name"] == ActionInputs(suites=["x"]).baseline_artifact
    (run,) = steps(push, "mcptest/action@")
    assert upload["with"]["path"] == f"${{{{ steps.{run['id']}.outputs.report-json }}}}"
    assert "always()" in upload["if"]
    (compare,) = steps(pr, "mcptest/action@")
    assert compare["with"]["baseline"] == "auto"


def test_every_input_used_is_an_action_input() -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text(encoding="utf-8"))
    declared = set(action["inputs"])
    for job in workflow()["jobs"].values():
        for step in steps(job, "mcptest/action@"):
            assert set(step["with"]) <= declared, set(step["with"]) - declared
    outputs = set(action["outputs"])
    assert "report-json" in outputs
