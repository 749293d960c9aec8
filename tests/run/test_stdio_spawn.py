"""`run/stdio_spawn.py`: a stdio server's process started without the MCP SDK, before a run
imports the SDK's client, and handed to its connection (or ended when none takes it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
from mcp.client.stdio import get_default_environment
from support.cli_run import SERVER, mcptest

from mcptest.run.stdio_spawn import early_servers, inherited_environment
from mcptest.suite.models import StdioServer


@pytest.mark.parametrize("shell_function", [False, True])
def test_the_inherited_environment_is_the_sdks(monkeypatch: pytest.MonkeyPatch,
                                               shell_function: bool) -> None:
    monkeypatch.setenv("TERM", "() { echo hi; }" if shell_function else "xterm")
    monkeypatch.delenv("LOGNAME", raising=False)
    monkeypatch.setenv("NOT_ALLOWED", "x")
    assert inherited_environment() == get_default_environment()


def test_a_run_starts_its_stdio_server_before_it_imports_the_sdk(tmp_path: Path) -> None:
    suite = tmp_path / "s.yml"
    suite.write_text(
        f"servers:\n  ex: {{command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]}}\n"
        "tools:\n  - {name: adds, server: ex, tool: add, args: {a: 1, b: 2},"
        " expect: [{target: result.structuredContent.result, matcher: {exact: 3}}]}\n")
    code = (
        "import json, sys\n"
        "seen = []\n"
        "def hook(event, args):\n"
        "    if event == 'subprocess.Popen' and not seen:\n"
        "        seen.append(sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'mcp_types')))\n"
        "sys.addaudithook(hook)\n"
        "from mcptest.cli.main import main\n"
        f"rc = main(['run', {str(suite)!r}, '--reporter', 'json', '--output', "
        f"{str(tmp_path / 'r.json')!r}])\n"
        "print(json.dumps({'rc': rc, 'sdk_at_spawn': seen[0] if seen else None}))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1]) == {"rc": 0, "sdk_at_spawn": []}
    report = json.loads((tmp_path / "r.json").read_text())
    assert [t["status"] for t in report["tests"]] == ["passed"]
    assert report["servers"][0]["startup_ms"] > 0


def test_a_process_no_connection_took_is_ended(tmp_path: Path) -> None:
    spec = StdioServer(command=[sys.executable, "-c", "import sys; sys.stdin.read()"])
    bad = StdioServer(command=["no-such-command-xyz"])
    nul = StdioServer(command=[sys.executable, "-c", "x\0y"])  # the spawn raises ValueError

    async def main() -> tuple[list[tuple[str, str]], int | None]:
        early = await early_servers([(("f", "s"), spec, tmp_path), (("f", "bad"), bad, tmp_path),
                                     (("f", "nul"), nul, tmp_path)], {"PATH": "/usr/bin:/bin"})
        server = early[("f", "s")]
        assert server.process.returncode is None  # running, waiting on its stdin
        await server.discard()
        return list(early), server.process.returncode

    keys, code = anyio.run(main)
    assert keys == [("f", "s")]  # those that cannot start are left to their connections to report
    assert code is not None


def test_a_server_that_cannot_be_spawned_fails_alone(tmp_path: Path) -> None:
    suite = tmp_path / "s.yml"
    suite.write_text(
        "servers:\n"
        f"  ex: {{command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]}}\n"
        f"  bad: {{command: [{json.dumps(sys.executable)}, \"-c\", \"x\\0y\"]}}\n"
        "tools:\n"
        "  - {name: adds, server: ex, tool: add, args: {a: 1, b: 2},"
        " expect: [{target: result.structuredContent.result, matcher: {exact: 3}}]}\n"
        "  - {name: never, server: bad, tool: add, args: {a: 1, b: 2}}\n")
    r = mcptest("run", suite, "--reporter", "json")
    assert r.returncode == 3, r.stderr
    rows = {t["name"]: t for t in json.loads(r.stdout)["tests"]}
    assert rows["adds"]["status"] == "passed"
    assert "null byte" in rows["never"]["message"]
