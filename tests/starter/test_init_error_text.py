"""The check `mcptest init` writes into every tool test: a call that answers error text without
`isError: true` fails it, an honest error or a good answer does not (docs/init.md,
docs/lint.md#error-text). Against the sqlite stand-in of tests/lint/stand_in.py."""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from mcptest.cli.main import main
from mcptest.lint.error_text import STARTER_MESSAGE

pytestmark = pytest.mark.slow  # starts a server

STAND_IN = Path(__file__).resolve().parents[1] / "lint" / "stand_in.py"


def init_and_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *flags: str) -> dict[str, Any]:
    monkeypatch.chdir(tmp_path)
    command = shlex.join([sys.executable, str(STAND_IN), "--sqlite", *flags])
    assert main(["init", "--command", command, "--output", "suite.yml"]) == 0
    suite = yaml.safe_load((tmp_path / "suite.yml").read_text(encoding="utf-8"))
    assert suite["defaults"]["kinds"] == ["tool"]
    main(["run", "suite.yml", "--reporter", "json", "--output", "run.json"])
    report = json.loads((tmp_path / "run.json").read_text(encoding="utf-8"))
    return {t["name"]: t for t in report["tests"]}


def failed_messages(test: dict[str, Any]) -> list[str | None]:
    return [a["user_message"] or a["message"] for a in test["assertions"]
            if a["status"] == "failed"]


def test_error_text_under_is_error_false_fails_the_generated_test(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    tests = init_and_run(tmp_path, monkeypatch)
    query = tests["read_query answers"]
    assert query["status"] == "failed"
    assert failed_messages(query) == [STARTER_MESSAGE]
    assert tests["list_tables answers"]["status"] == "passed"
    assert tests["get_time answers"]["status"] == "passed"


def test_an_honest_error_fails_only_the_is_error_check(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    tests = init_and_run(tmp_path, monkeypatch, "--honest-errors")
    query = tests["read_query answers"]
    assert query["status"] == "failed"
    (message,) = failed_messages(query)
    assert message != STARTER_MESSAGE and "isError" in str(message)
