"""`make demo` (examples/demo.sh) prints a screenful, not the whole report: the counts, one line
per suite file, what was not judged and why (each reason once), what it left out, and where
the reports are; every test is in the reports it writes (docs/reports.md, `summary`)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # the demo runs every example suite

REPO = Path(__file__).resolve().parents[2]
MAX_LINES = 40


def test_make_demo_prints_a_summary_and_where_the_reports_are(tmp_path: Path) -> None:
    shutil.copytree(REPO / "examples", tmp_path / "examples")
    env = {k: v for k, v in os.environ.items()
           if not k.endswith(("_API_KEY", "_BASE_URL", "_API_BASE")) and
           not k.startswith("MCPTEST_")}
    env["BIN"] = str(Path(sys.executable).parent)
    done = subprocess.run(["bash", "examples/demo.sh"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=600, check=False)
    lines = (done.stdout + done.stderr).splitlines()
    assert done.returncode == 0, "\n".join(lines)
    assert len(lines) <= MAX_LINES, "\n".join(lines)
    report = json.loads((tmp_path / ".mcptest" / "demo" / "run.json").read_text())
    counts = report["summary"]["counts"]
    deferred = counts["deferred"]
    assert deferred > 0  # no key here: the judge tests are not judged, and say so once
    assert f"{counts['passed']} passed, {deferred} not judged" in lines
    assert f"not judged ({deferred} test(s): no failure, and no pass either; --require-judge " \
           "fails them):" \
        in lines
    key_lines = [line for line in lines if "no OPENAI_API_KEY" in line]
    assert len(key_lines) == 1 and key_lines[0].strip().endswith(")"), key_lines
    assert not any(line.startswith("mcptest: [") for line in lines)  # no per-test progress
    # … then the two suites with committed model cassettes, replayed with no key
    # (docs/cassettes.md): listed a second time, both passing, nothing sent
    assert sum("examples/" in line and ("passed" in line or "not judged" in line)
               for line in lines) == len(report["suites"]) + 2
    assert "2 passed" in lines
    assert "model cassettes (replay): 18 answer(s) replayed, 0 recorded live, 0 file(s) " \
        "written" in lines
    assert any("expected-failure" in line for line in lines)
    full = (tmp_path / ".mcptest" / "demo" / "report.txt").read_text(encoding="utf-8")
    assert all(t["name"] in full for t in report["tests"])  # every test, in the full report
    assert any(".mcptest/demo/report.txt" in line for line in lines)
