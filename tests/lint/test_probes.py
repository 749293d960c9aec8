"""The lint rules that learn from requests, each against the stand-in server (tests/lint/
stand_in.py) in the mode that should fire it and in the mode that should not."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from lint.test_lint import lint, write_suite

pytestmark = pytest.mark.slow  # starts real servers

STAND_IN = Path(__file__).parent / "stand_in.py"


def stand_in(*flags: str) -> list[str]:
    return [sys.executable, str(STAND_IN), *flags]


def findings(report: dict[str, Any], rule: str) -> list[dict[str, Any]]:
    return [f for f in report["lint"]["findings"] if f["rule"] == rule]


@pytest.mark.parametrize(("flags", "fires"), [(["--sqlite"], True),
                                              (["--sqlite", "--honest-errors"], False)])
def test_error_text_from_the_invalid_arguments_probe(
    tmp_path: Path, flags: list[str], fires: bool,
) -> None:
    code, report = lint(write_suite(tmp_path, {"db": stand_in(*flags)},
                                    "lint:\n  probe_invalid_args: true\n"), tmp_path)
    hits = findings(report, "error-text")
    if fires:
        (hit,) = hits
        assert hit["subject"] == "read_query" and hit["level"] == "error"
        assert "missing required arguments with error text under isError: false: " \
               "\"Error: 'query'\"" in hit["message"]
        assert code == 1
    else:
        assert hits == [] and findings(report, "invalid-args") == []
        assert code == 0


@pytest.mark.parametrize(("flags", "fires"), [(["--sqlite"], True),
                                              (["--sqlite", "--honest-errors"], False)])
def test_error_text_from_the_suites_own_calls(
    tmp_path: Path, flags: list[str], fires: bool,
) -> None:
    tests = ("lint:\n  call_tools: true\ntools:\n"
             "  - {name: tables, server: db, tool: list_tables}\n"
             "  - {name: bad sql, server: db, tool: read_query,"
             " args: {query: SELEC 1}}\n")
    code, report = lint(write_suite(tmp_path, {"db": stand_in(*flags)}, tests), tmp_path)
    hits = findings(report, "error-text")
    assert [h["subject"] for h in hits] == (["read_query"] if fires else [])
    if fires:
        assert "(test `bad sql`) answered with error text" in hits[0]["message"]
        assert 'near "SELEC": syntax error' in hits[0]["message"]
    assert code == (1 if fires else 0)
