"""`--models record` with no key and no gateway (issue 37): the tests fail, not defer, so the
run is not exit 0 having recorded nothing, and the committed cassette is kept as it was."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest
from support.cli_inproc import cli

pytestmark = pytest.mark.slow  # starts the example server

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_recording_without_a_model_fails_and_keeps_the_cassette(tmp_path: Path) -> None:
    for name in ("replay.yml", "server", "cassettes"):
        source = EXAMPLES / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name)
        else:
            shutil.copy2(source, tmp_path / name)
    committed = {p: p.read_bytes() for p in (tmp_path / "cassettes").rglob("*.json")}
    assert committed
    ran = cli("run", "replay.yml", "--models", "record", "--no-cache", "--reporter", "json",
              "--output", "run.json", cwd=tmp_path, env={"MCPTEST_PYTHON": sys.executable})
    assert ran.returncode == 1, ran.stdout + ran.stderr
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    (test,) = report["tests"]
    assert test["status"] == "failed" and test["gap"] == "environment"
    assert "OPENAI_API_KEY" in json.dumps(test)
    assert report["summary"]["cassettes"]["written"] == 0
    assert {p: p.read_bytes() for p in (tmp_path / "cassettes").rglob("*.json")} == committed
