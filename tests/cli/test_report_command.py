"""`mcptest report`: re-render a saved run; a bad file is a clear usage error. What the command
writes and returns is the point, not its process: it runs in-process (`support.cli_inproc`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from reporters.sample import sample_report
from support.cli_inproc import cli as mcptest


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


@pytest.mark.parametrize("fmt", ["pretty", "json", "junit", "md", "html", "sarif", "tap"])
def test_a_report_from_before_the_jury_bands_loads_and_renders(tmp_path: Path, fmt: str) -> None:
    """A report written before `confidence`/`escalate` (and `deferred`) existed: the fields
    default to absent (no band, not escalated) and every format renders it."""
    data = json.loads(sample_report().model_dump_json())
    juries = [a["judge"]["jury"] for t in data["tests"] for a in t["assertions"]
              if a.get("judge") and a["judge"].get("jury")]
    assert juries
    for jury in juries:
        for key in ("confidence", "escalate", "deferred"):
            jury.pop(key)
    old = tmp_path / "old.json"
    old.write_text(json.dumps(data), encoding="utf-8")
    r = mcptest("report", old, "--format", fmt)
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr
    if fmt == "json":
        jury = next(a["judge"]["jury"] for t in json.loads(r.stdout)["tests"]
                    for a in t["assertions"] if a.get("judge") and a["judge"].get("jury"))
        assert jury["confidence"] is None and jury["escalate"] is False
    if fmt == "pretty":
        assert "jury: n/a · α 0.00" in r.stdout
