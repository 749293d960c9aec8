"""Running the CLI as a user does, for tests that drive it against the loopback judge server:
a subprocess with no provider keys (unless a test gives some), the example server's suite head,
and the JSON report read back."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from support.cli_inproc import Ran

REPO = Path(__file__).resolve().parents[2]
SERVER = REPO / "examples" / "server" / "example_server.py"
STDIO_HEAD = f"""servers:
  ex:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(SERVER))}]
"""
"""The example server as `ex`, started by each run (and each repetition) over stdio."""
_SHARED = os.environ.get("MCPTEST_TEST_EXAMPLE_URL")  # support.servers.SHARED_EXAMPLE_URL
HEAD = f"""servers:
  ex:
    url: {json.dumps(_SHARED)}
""" if _SHARED else STDIO_HEAD
"""The example server as `ex`: the test process's shared one over Streamable HTTP
(tests/conftest.py), so a run's fresh sessions cost no server start; STDIO_HEAD outside pytest.
Tests where the server's process is the point write their own `command:`."""
EXAMPLE_STDIO = re.compile(
    r'^    command: \["\$\{python\}", "example_server\.py"\]\n    cwd: \S+\n', re.MULTILINE)
"""How the worked examples (examples/calibration, examples/escalate) and the seed snippets start
the example server."""


def shared_server_text(text: str, where: Path) -> str:
    """`text`, a suite that starts the example server as EXAMPLE_STDIO says, with that server the
    test process's shared one as HEAD names it, on as many lines (positions stay as written):
    for tests of what a run does with the server's answers, where a server process per run and
    per repetition (~0.75 s of CPU each) is not the point."""
    n = len(EXAMPLE_STDIO.findall(text))
    assert n == 1, f"{where}: its example server is no longer started over stdio ({n} found)"
    if not _SHARED:
        return text
    return EXAMPLE_STDIO.sub(f"    url: {json.dumps(_SHARED)}\n"
                             "    # the test process's shared example server\n", text)


def on_shared_server(suite: Path) -> Path:
    """`suite` rewritten in place on the shared server (`shared_server_text`). Returns it."""
    suite.write_text(shared_server_text(suite.read_text(encoding="utf-8"), suite),
                     encoding="utf-8")
    return suite


POLITE_JUDGE = '{llm-judge: {rubric: "The greeting is polite.", threshold: 0.5}}'


def greet_suite(tmp_path: Path, extra: str = "", matcher: str = POLITE_JUDGE) -> str:
    """`mcptest.yml` in tmp_path: one judged greet test on the example server (`extra` lines
    go under its args: repeat settings); returns the file's name."""
    (tmp_path / "mcptest.yml").write_text(HEAD + f"""judge: {{model: judge-x}}
tools:
  - name: greets politely
    server: ex
    tool: greet
    args: {{name: Ada}}{extra}
    expect:
      - target: "result.content[0].text"
        matcher: {matcher}
""", encoding="utf-8")
    return "mcptest.yml"


POLITE_PAIR = HEAD + """judge: {model: judge-x}
tools:
""" + "".join(f"""  - name: greets {who} politely
    server: ex
    tool: greet
    args: {{name: {who}}}
    expect:
      - target: "result.content[0].text"
        matcher: {POLITE_JUDGE}
""" for who in ("Ada", "Bob"))
"""Two judged greet tests (Ada, Bob) on the example server, one judge each."""

MIXED = """variables:
  who: {from_env: WHO, default: Ada}
""" + HEAD + """tools:
  - name: greets
    server: ex
    tool: greet
    args: {name: "${who}"}
    tags: [smoke, skip]
    expect:
      - target: result.content[0].text
        matcher: {exact: "Hello, ${who}!"}
  - name: adds wrongly
    server: ex
    tool: add
    args: {a: 2, b: 3}
    expect:
      - target: result.structuredContent.result
        matcher: {exact: 6}
        message: two and three make six
  - name: reads as a release note
    server: ex
    tool: release_note
    args: {service: billing, tag: v1.2.0}
    expect:
      - target: result.content[0].text
        matcher: {llm-judge: {rubric: "Reads as a release note.", model: judge-m}}
"""
"""A suite of three tool tests on the example server: one passes, one fails (2 + 3 is not 6),
one is judged by `judge-m` (deferred without a judge server)."""


def keyless(environ: Mapping[str, str]) -> dict[str, str]:
    """`environ` without provider keys and judge settings: a test's commands see only its own."""
    return {k: v for k, v in environ.items()
            if not k.endswith("_API_KEY") and not k.startswith("MCPTEST_JUDGE")}


KEYLESS = keyless(os.environ)


def mcptest(*args: str | Path, cwd: Path | None = None,
            env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """`python -m mcptest ARGS` without provider keys, plus `env`."""
    return subprocess.run([sys.executable, "-m", "mcptest", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120,
                          env={**KEYLESS, **(env or {})})


def run_json(path: Path, *args: str, env: dict[str, str] | None = None,
             ) -> tuple[Ran, dict[str, Any]]:
    """`mcptest run PATH` with the pretty report on stdout and the JSON report read back; in
    the test's process (`support.cli_inproc`): what the run writes is the point, not the
    process."""
    from support.cli_inproc import cli  # it imports this module

    out = path.with_suffix(".json")
    r = cli("run", path, "--no-cache", "--reporter", "pretty", "--reporter", "json",
            "--output", out, *args, env=env)
    assert out.is_file(), r.stderr
    return r, json.loads(out.read_text(encoding="utf-8"))
