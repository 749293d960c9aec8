"""`main()` as the program manages its garbage collector and ends the process itself once its
output is flushed (exit handlers run, the interpreter's teardown does not); called with argv it
leaves both alone (src/mcptest/cli/main.py; docs/architecture.md, "Costs")."""

from __future__ import annotations

import gc
import json
import subprocess
import sys

import pytest

from mcptest.cli.main import main

PROGRAM = """
import atexit, gc, json, sys, threading
from mcptest.cli.main import main
atexit.register(lambda: print(json.dumps([gc.isenabled(), gc.get_freeze_count() > 10000]),
                              file=sys.stderr))
done = threading.Event()
if sys.argv[1:] == ["busy"]:  # another thread alive: main returns, the interpreter joins it
    threading.Thread(target=done.wait).start()
sys.argv = ["mcptest", "schema"]
print("main returned", main(), file=sys.stderr)
done.set()
"""


def test_as_the_program_it_freezes_what_start_up_made_and_ends_the_process() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["$schema"].startswith("https://json-schema.org/")
    assert "main returned" not in out.stderr  # the process ended inside main()
    assert json.loads(out.stderr.strip().splitlines()[-1]) == [True, True]  # exit handlers ran


def test_with_another_thread_alive_it_returns_and_the_interpreter_ends_the_process() -> None:
    out = subprocess.run([sys.executable, "-c", PROGRAM, "busy"], capture_output=True,
                         text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["$schema"].startswith("https://json-schema.org/")
    lines = out.stderr.strip().splitlines()
    assert lines[-2] == "main returned 0" and json.loads(lines[-1]) == [True, True]


def test_called_with_argv_it_leaves_the_collector_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    frozen = gc.get_freeze_count()
    assert main(["schema"]) == 0
    assert gc.isenabled()
    assert gc.get_freeze_count() == frozen
    assert '"$schema"' in capsys.readouterr().out
