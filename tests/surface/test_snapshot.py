"""`mcptest surface snapshot` against real servers: stable bytes, every section, and a diff of
the example server against itself in its poisoned test mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from support.servers import everything_command, example_command

from mcptest.cli.main import main

pytestmark = pytest.mark.slow  # starts real servers or subprocesses


def suite(tmp_path: Path, servers: dict[str, list[str]], extra: str = "") -> Path:
    lines = ["servers:"]
    for name, argv in servers.items():
        lines += [f"  {name}:", f"    command: {json.dumps(argv)}", "    inherit_env: true"]
    path = tmp_path / "suite.yml"
    path.write_text("\n".join(lines) + "\n" + extra, encoding="utf-8")
    return path


def test_snapshot_is_byte_identical_across_two_runs(tmp_path: Path) -> None:
    path = suite(tmp_path, {"example": example_command(), "everything": everything_command()})
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert main(["surface", "snapshot", str(path), "--output", str(first)]) == 0
    assert main(["surface", "snapshot", str(path), "--output", str(second)]) == 0
    assert first.read_bytes() == second.read_bytes()
    doc = json.loads(first.read_text(encoding="utf-8"))
    everything = doc["servers"]["everything"]
    assert everything["resources"] and everything["resourceTemplates"] and everything["prompts"]
    names = [t["name"] for t in everything["tools"]]
    assert names == sorted(names) and "echo" in names
    example = {t["name"]: t for t in doc["servers"]["example"]["tools"]}
    assert set(example["forecast"]) >= {"name", "description", "inputSchema", "outputSchema"}
    assert example["greet"]["inputSchema"]["required"] == ["name"]


def test_poisoned_mode_shows_in_the_description_channel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = suite(tmp_path, {"example": example_command()})
    clean, poisoned = tmp_path / "clean.json", tmp_path / "poisoned.json"
    assert main(["surface", "snapshot", str(path), "--output", str(clean)]) == 0
    monkeypatch.setenv("MCPTEST_EXAMPLE_POISONED", "1")
    assert main(["surface", "snapshot", str(path), "--output", str(poisoned)]) == 0
    capsys.readouterr()
    assert main(["surface", "diff", str(clean), str(poisoned), "--format", "json"]) == 0
    changes = json.loads(capsys.readouterr().out)
    kinds = {(c["kind"], c["item"]) for c in changes}
    assert ("description-changed", "release_note") in kinds
    poisoned_change = next(c for c in changes if c["item"] == "release_note")
    assert poisoned_change["tokenDelta"] > 0 and "{+" in poisoned_change["wordDiff"]


def test_unknown_server_is_a_usage_error(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    path = suite(tmp_path, {"example": example_command()})
    assert main(["surface", "snapshot", str(path), "--server", "nope"]) == 2
    assert "unknown server(s) nope" in capsys.readouterr().err
