"""`mcptest lint` with a server that never starts says so once in its report, and counts
servers, not tests (a new user's run: the same error three times, under "0 test(s)")."""

from __future__ import annotations

from pathlib import Path

from support.cli_inproc import cli

from mcptest.exit_codes import ExitCode

SUITE = """
servers:
  ex:
    command: [no-such-program-for-mcptest, server.py]
tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: Ada}
"""


def test_a_server_that_never_started_is_said_once(tmp_path: Path) -> None:
    (tmp_path / "suite.yml").write_text(SUITE, encoding="utf-8")
    r = cli("lint", "suite.yml", cwd=tmp_path)
    assert r.returncode == ExitCode.SERVER_NOT_READY, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "mcptest 0.1.0 · 1 suite file(s) · 1 server(s)"
    said = [line for line in lines if "command not found: no-such-program-for-mcptest" in line]
    assert said == ["server ex failed: suite.yml:4:5: servers.ex: command not found: "
                    "no-such-program-for-mcptest (not on the server's PATH)"]
    assert lines[-1] == "exit 3: a server never became ready"
    # stderr carries it for a CI log whose stdout goes to a file
    assert r.stderr.count("command not found: no-such-program-for-mcptest") == 1
