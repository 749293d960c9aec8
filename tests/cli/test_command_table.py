"""`cli/main.py`'s `COMMANDS` is the one list of commands: every command module is in it, and
a process that runs no command (`--version`, `--help`) imports none of them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import mcptest.cli.commands
from mcptest.cli.main import COMMANDS

COMMAND_DIR = Path(mcptest.cli.commands.__file__).parent


def test_every_command_module_is_in_the_table() -> None:
    modules = {f"mcptest.cli.commands.{p.stem}" for p in COMMAND_DIR.glob("*.py")
               if p.stem != "__init__"}
    assert modules == {module for module, _ in COMMANDS.values()}
    assert all(name.replace("-", "_") == module.rsplit(".", 1)[1]
               for name, (module, _) in COMMANDS.items())


@pytest.mark.parametrize("flag", ["--version", "--help"])
def test_no_command_imports_no_command_module(flag: str) -> None:
    code = (
        "import json, sys\n"
        "from mcptest.cli.main import main\n"
        "try:\n"
        f"    main([{flag!r}])\n"
        "except SystemExit as e:\n"
        "    code = e.code\n"
        "print(json.dumps({'code': code, 'imported': sorted(m for m in sys.modules\n"
        "    if m.startswith(('mcptest.cli.commands.', 'pydantic')))}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    out = r.stdout.strip().splitlines()
    assert json.loads(out[-1]) == {"code": 0, "imported": []}
    listed = " ".join(" ".join(out[:-1]).split())  # argparse wraps long help lines
    assert listed.startswith("mcptest " if flag == "--version" else "usage: mcptest")
    if flag == "--help":  # every command listed with its table help
        for name, (_, help_text) in COMMANDS.items():
            assert f"{name} {help_text}" in listed


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_says_what_it_does_in_its_help(name: str,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """`mcptest CMD --help` opens with a description under its usage: the table's help, unless
    the command's module says more (a new user found `run --help` with no word of what it does)."""
    from mcptest.cli.main import build_parser

    with pytest.raises(SystemExit):
        build_parser(name).parse_args([name, "--help"])
    usage, description = capsys.readouterr().out.split("\n\n")[:2]
    assert usage.startswith(f"usage: mcptest {name}")
    first = " ".join(description.split())
    assert first[:1].isupper() and not first.startswith(("positional arguments", "options")), first
