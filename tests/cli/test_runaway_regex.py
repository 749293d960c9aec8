"""A suite regex that backtracks catastrophically neither hangs the run nor deafens it to SIGTERM.

Each match stops after its 1 s bound (docs/suites.md, Matchers), so a run of many runaway
matches still answers SIGTERM between them: exit 130, reports written, the rest skipped.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from support.cli_run import HEAD as SHARED_HEAD

pytestmark = pytest.mark.slow  # starts real servers or subprocesses

REPO = Path(__file__).resolve().parents[2]
N = 40  # 40 runaway matches: 40 s if SIGTERM had to wait for all of them
HANG_GUARD_S = 20


def _suite(tmp_path: Path) -> Path:
    name = "a" * 64  # "Hello, aaa…a!": `(a|aa)+$` tries ~10^13 splits before the `!` fails it
    tests = "".join(f"""
  - name: runaway {i}
    server: ex
    tool: greet
    args: {{name: {name}}}
    expect:
      - target: result.content[0].text
        matcher: {{regex: "(a|aa)+$"}}
""" for i in range(N))
    path = tmp_path / "suite.yml"
    path.write_text(f"""
{SHARED_HEAD}tools:{tests}""", encoding="utf-8")
    return path


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_runaway_regex_fails_its_test_and_sigterm_still_stops_the_run(tmp_path: Path) -> None:
    out = tmp_path / "run.json"
    proc = subprocess.Popen(
        [sys.executable, "-m", "mcptest", "run", str(_suite(tmp_path)), "-v",
         "--reporter", "json", "--output", str(out)],
        stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
    )
    assert proc.stderr is not None
    killer = threading.Timer(3 * HANG_GUARD_S, proc.kill)  # a match that never ends
    killer.start()
    try:
        for line in proc.stderr:  # the first runaway test has been graded
            if "runaway 0" in line:
                break
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=HANG_GUARD_S)
        except subprocess.TimeoutExpired:
            proc.kill()
            pytest.fail("SIGTERM did not stop a run of runaway regexes")
    finally:
        killer.cancel()
    assert proc.returncode == 130
    data = json.loads(out.read_text(encoding="utf-8"))
    first = data["tests"][0]
    assert first["status"] == "failed"
    assert "matching /(a|aa)+$/ took longer than 1s and was stopped" in (
        first["assertions"][0]["message"])
    assert data["tests"][-1]["status"] == "skipped"
