"""Secrets stay out of what mcptest prints and writes beyond its reports (issue 25): the
console line of a server that exits at start quoting its `--token=…`, the surface snapshot
(`surface snapshot`, `lint --update`: files meant to be committed), and a value redacted in an
answer's text that the same answer's `structuredContent` repeats under a neutral key. The Action's
log is the CLI's console: tests/action/test_action_secrets.py."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from support.cli_run import mcptest, run_json

pytestmark = pytest.mark.slow

SERVER = Path(__file__).resolve().parents[1] / "data" / "hostile_servers" / "echo_secret.py"
SECRET = "cred-7f3a9e1c5b2d"
"""Held in a variable whose name says nothing (`UPSTREAM_CRED`): only the suite's `{env: …}`
makes it a secret."""
ENV = {"UPSTREAM_CRED": SECRET}


def _suite(tmp_path: Path, mode: str = "", extra: str = "") -> Path:
    argv = [sys.executable, str(SERVER), *([mode] if mode else [])]
    path = tmp_path / "leaky.yml"
    path.write_text(f"""servers:
  leaky:
    command: {json.dumps(argv)}
    env: {{ SERVICE_CREDENTIAL: {{ env: UPSTREAM_CRED }} }}
    protocol: legacy
{extra}tools:
  - name: who am I
    server: leaky
    tool: whoami
    expect:
      - target: result.structuredContent.credential
        matcher: {{ exact: "nobody" }}
""", encoding="utf-8")
    return path


def test_a_server_that_exits_at_start_has_its_token_redacted_on_the_console(
        tmp_path: Path) -> None:
    r, report = run_json(_suite(tmp_path, "exit"), env=ENV)
    assert r.returncode == 3
    assert "exited at start" in r.stderr and "--token=[REDACTED]" in r.stderr, r.stderr
    assert SECRET not in r.stderr + r.stdout
    assert SECRET not in json.dumps(report)


def test_a_started_process_that_exits_has_its_token_redacted(tmp_path: Path) -> None:
    """`start:` quotes the process's last output lines; the token came from a variable read
    from an environment variable named like a token."""
    path = tmp_path / "started.yml"
    path.write_text("""variables:
  tok: { from_env: SERVICE_TOKEN }
servers:
  web:
    url: "http://127.0.0.1:9/mcp"
    start:
      command: ["sh", "-c", "echo refused --token=$0 >&2; exit 4", "${tok}"]
tools:
  - { name: t, server: web, tool: whoami }
""", encoding="utf-8")
    r, report = run_json(path, env={"SERVICE_TOKEN": SECRET})
    assert r.returncode == 3
    assert "exited with code 4" in r.stderr and "--token=[REDACTED]" in r.stderr, r.stderr
    assert SECRET not in r.stderr + r.stdout + json.dumps(report)


def test_structured_content_repeats_no_value_the_text_had_redacted(tmp_path: Path) -> None:
    """`api_key=…` in the text is a secret by its shape; the same value under `credential` in
    `structuredContent`, and in the assertion's `actual`, goes too. Here the suite does not
    declare it (no `{env}`), so only the answer itself says it is a secret."""
    path = _suite(tmp_path).read_text(encoding="utf-8").replace(
        "env: { SERVICE_CREDENTIAL: { env: UPSTREAM_CRED } }", "inherit_env: [SERVICE_CREDENTIAL]")
    suite = tmp_path / "undeclared.yml"
    suite.write_text(path, encoding="utf-8")
    r, report = run_json(suite, env={"SERVICE_CREDENTIAL": SECRET})
    assert r.returncode == 1
    [row] = report["tests"]
    result = row["response"]["result"]
    assert result["content"][0]["text"] == "api_key=[REDACTED]"
    assert result["structuredContent"] == {"credential": "[REDACTED]",
                                           "nested": [{"value": "[REDACTED]"}]}
    assert SECRET not in json.dumps(report) + r.stdout + r.stderr


def test_the_surface_snapshot_is_redacted(tmp_path: Path) -> None:
    suite = _suite(tmp_path)
    out = tmp_path / "surface.json"
    r = mcptest("surface", "snapshot", suite, "--output", out, env=ENV)
    assert r.returncode == 0, r.stderr
    text = out.read_text(encoding="utf-8")
    assert SECRET not in text
    tool = json.loads(text)["servers"]["leaky"]["tools"][0]
    assert tool["description"] == "Says who you are; connected with [REDACTED]"
    assert tool["inputSchema"]["properties"]["as"]["default"] == "[REDACTED]"


def test_lint_update_writes_a_redacted_snapshot_that_then_matches(tmp_path: Path) -> None:
    suite = _suite(tmp_path, extra="surface: { snapshot: surface.json }\n")
    r = mcptest("lint", suite, "--update", env=ENV)
    assert SECRET not in r.stdout + r.stderr
    text = (tmp_path / "surface.json").read_text(encoding="utf-8")
    assert SECRET not in text and "connected with [REDACTED]" in text
    again = mcptest("lint", suite, "--reporter", "json", "--output", tmp_path / "lint.json",
                    env=ENV)
    findings = json.loads((tmp_path / "lint.json").read_text())["lint"]["findings"]
    assert not [f for f in findings if f["rule"].startswith("surface")], findings
    assert SECRET not in again.stdout + again.stderr
