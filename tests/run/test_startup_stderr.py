"""A server that fails to start shows the line that says why, once (issue 37: `npx` of a
misspelt package hid npm's `404 Not Found` line under its last three lines, and the report
printed the stderr tail for the server and again for every test)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli

from mcptest.exit_codes import ExitCode

pytestmark = pytest.mark.slow  # starts a process per server

NPM_404 = [
    "npm error code E404",
    "npm error 404 Not Found - GET https://registry.npmjs.org/@modelcontextprotocol%2fserver-memroy"
    " - Not found",
    "npm error 404",
    "npm error 404  '@modelcontextprotocol/server-memroy@*' is not in this registry.",
    "npm error 404",
    "npm error 404 Note that you can also install from a",
    "npm error 404 tarball, folder, http url, or git url.",
    "npm error A complete log of this run can be found in: /root/.npm/_logs/debug-0.log",
]


def test_the_telling_line_leads_and_the_tail_is_shown_once(tmp_path: Path) -> None:
    fake = tmp_path / "fake_npx.py"
    fake.write_text(f"import sys\nsys.stderr.write({chr(10).join(NPM_404) + chr(10)!r})\n"
                    "sys.exit(1)\n", encoding="utf-8")
    (tmp_path / "s.yml").write_text(f"""servers:
  memory: {{command: [{json.dumps(sys.executable)}, {json.dumps(str(fake))}]}}
tools:
  - {{name: first, server: memory, tool: store}}
  - {{name: second, server: memory, tool: fetch}}
""", encoding="utf-8")
    ran = cli("run", "s.yml", "--reporter", "pretty", "--reporter", "json", "--output",
              "run.json", cwd=tmp_path)
    assert ran.returncode == ExitCode.SERVER_NOT_READY
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    (server,) = report["servers"]
    assert "stderr: npm error 404 Not Found - GET https://registry.npmjs.org/" in server["error"]
    assert server["error"].endswith("npm error A complete log of this run can be found in: "
                                    "/root/.npm/_logs/debug-0.log")
    assert ran.stdout.count("404 Not Found") == 1, ran.stdout  # the header, not every test
    assert ran.stdout.count("never became ready: server memory (its error is above)") == 2
    assert all("404 Not Found" in t["message"] for t in report["tests"])  # files keep it all
