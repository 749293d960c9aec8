"""A test's server stderr is its own window (docs/pr-comment.md, "Server stderr"): what the
server wrote while that test's request was in flight, never an earlier or later test's lines;
the server's whole tail stays on the server's row."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from support.cli_run import run_json

from mcptest.run.stderr_log import StderrLog

NOISY = Path(__file__).resolve().parents[1] / "data" / "stderr_server" / "noisy_server.py"


def _write(log: StderrLog, text: str) -> None:
    code = f"import sys; sys.stderr.write({text!r})"
    subprocess.run([sys.executable, "-c", code], stderr=log.file, check=True)


def test_a_window_holds_only_what_was_written_after_its_mark() -> None:
    log = StderrLog()
    _write(log, "before\n")
    mark = log.mark()
    assert log.window(mark) == ""
    _write(log, "mine\n")
    assert log.window(mark) == "mine"
    later = log.mark()
    _write(log, "next test\n")
    assert log.window(mark) == "mine\nnext test" and log.window(later) == "next test"
    assert log.tail() == "before\nmine\nnext test"


def test_a_long_window_keeps_its_end_and_survives_the_server() -> None:
    log = StderrLog()
    _write(log, "x" * 10_000 + "\n")
    mark = log.mark()
    _write(log, "".join(f"line {i}\n" for i in range(500)) + "crash\n")
    cut = log.window(mark, 100)
    assert cut.endswith("line 499\ncrash") and len(cut) <= 100 and "x" not in cut
    log.retire()  # the server is gone: the report is written after it
    assert log.window(mark).endswith("crash") and "x" not in log.window(mark)
    assert log.mark() > mark


@pytest.mark.slow
def test_each_failing_test_carries_its_own_stderr_lines(tmp_path: Path) -> None:
    suite = tmp_path / "noisy.yml"
    suite.write_text(f"""servers:
  noisy:
    command: [{json.dumps(sys.executable)}, {json.dumps(str(NOISY))}]
tools:
""" + "".join(f"""  - name: says {w}
    server: noisy
    tool: say
    args: {{word: {w}}}
    expect:
      - target: result.content[0].text
        matcher: {{exact: {expected}}}
""" for w, expected in (("alpha", "nope"), ("beta", "beta"), ("gamma", "nope"))),
        encoding="utf-8")
    r, report = run_json(suite)
    assert r.returncode == 1, r.stdout + r.stderr
    alpha, beta, gamma = report["tests"]
    assert (alpha["status"], beta["status"], gamma["status"]) == ("failed", "passed", "failed")
    assert alpha["server_stderr"] == "noisy: handling alpha"
    assert gamma["server_stderr"] == "noisy: handling gamma"  # not alpha's, not beta's
    assert alpha["server_stderr_scope"] == gamma["server_stderr_scope"] == "test"
    assert "server_stderr" not in beta or beta["server_stderr"] is None
    tail = report["servers"][0]["stderr_tail"]  # the server-wide tail keeps everything
    assert tail.splitlines() == ["noisy: started", "noisy: handling alpha",
                                 "noisy: handling beta", "noisy: handling gamma"]
