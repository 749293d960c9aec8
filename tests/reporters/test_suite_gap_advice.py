"""The `suite` gap's advice says only what is true: `validate --connect` checks tool names,
not target paths (only a run sees an answer), so a target typo passes it and the advice points
at the row's message, which names the closest key."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from support.cli_inproc import cli
from support.cli_run import HEAD, run_json

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.slow  # starts the example server

TARGET_TYPO = HEAD + """tools:
  - name: greets with a typo in the target
    server: ex
    tool: greet
    args: {name: Ada}
    expect:
      - {target: "result.content[0].txt", matcher: {contains: Ada}}
"""


def test_a_target_typo_is_advised_by_its_row_not_by_validate(tmp_path: Path) -> None:
    suite = tmp_path / "typo.yml"
    suite.write_text(TARGET_TYPO, encoding="utf-8")
    assert cli("validate", "--connect", suite).returncode == 0  # it checks tool names only
    r, report = run_json(suite)
    (row,) = report["tests"]
    assert row["gap"] == "suite"
    assert row["assertions"][0]["message"].endswith("(did you mean `text`?)")
    (advice,) = [line.strip() for line in r.stdout.splitlines()
                 if line.strip().startswith("suite: ")]
    assert advice == (
        "suite: the suite names what the server does not have: fix the tool name "
        "(`mcptest validate --connect` checks tool names before a run) or the target path "
        "(only a run sees an answer: the row's message names the closest key)")
