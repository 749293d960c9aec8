"""`mcptest report`: re-render a saved run; a bad file is a clear usage error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from reporters.sample import sample_report


def mcptest(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "mcptest", *map(str, args)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    path = tmp_path / "run.json"
    path.write_text(sample_report().model_dump_json(indent=2), encoding="utf-8")
    return path


def test_rerenders_json_identically(saved: Path) -> None:
    r = mcptest("report", saved, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout) == json.loads(saved.read_text())


def test_rerenders_pretty_and_writes_output_files(saved: Path, tmp_path: Path) -> None:
    out = tmp_path / "deep" / "report.txt"
    r = mcptest("report", saved, "--format", "pretty", "--output", out)
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    for t in sample_report().tests:
        assert t.name[:30] in text


def test_exit_code_option_returns_the_saved_runs_code(saved: Path) -> None:
    r = mcptest("report", saved, "--format", "json", "--exit-code")
    assert r.returncode == sample_report().summary.exit_code != 0


def test_unreadable_report_is_a_usage_error(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"version": 99}', encoding="utf-8")
    r = mcptest("report", bad)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    assert str(bad) in r.stderr
