"""`main()` as the program manages its garbage collector; called with argv it leaves it alone
(src/mcptest/cli/main.py; docs/judges.md, "Speed")."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from mcptest.cli.main import main

PROGRAM = """
import gc, json, sys
from mcptest.cli.main import main
sys.argv = ["mcptest", "schema"]
rc = main()
print(json.dumps([rc, gc.isenabled(), gc.get_freeze_count() > 10000]), file=sys.stderr)
"""


def test_as_the_program_it_freezes_what_start_up_made_and_collects_again() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["$schema"].startswith("https://json-schema.org/")
    assert json.loads(out.stderr.strip().splitlines()[-1]) == [0, True, True]


def test_called_with_argv_it_leaves_the_collector_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    frozen = gc.get_freeze_count()
    assert main(["schema"]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    assert '"$schema"' in capsys.readouterr().out
