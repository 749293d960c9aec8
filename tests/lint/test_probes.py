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


@pytest.mark.parametrize(("flags", "fires"), [([], True), (["--check-cursors"], False)])
def test_an_unknown_cursor_should_be_refused_with_invalid_params(
    tmp_path: Path, flags: list[str], fires: bool,
) -> None:
    code, report = lint(write_suite(tmp_path, {"db": stand_in(*flags)}), tmp_path)
    hits = findings(report, "invalid-cursor")
    assert [h["level"] for h in hits] == (["warning"] if fires else [])
    if fires:
        assert "with a page of 1 tool(s) instead of JSON-RPC error -32602" in hits[0]["message"]
    assert code == 0


@pytest.mark.parametrize(("flags", "protocol", "declared", "era", "level"), [
    (["--era", "dual"], "auto", "modern", "dual-era", "error"),
    (["--era", "modern"], "auto", "modern", "modern", None),
    (["--era", "legacy"], "auto", "modern", "legacy", "error"),
    (["--era", "legacy"], "auto", "legacy", "legacy", None),
    (["--era", "dual"], "legacy", "legacy", "dual-era", "error"),  # pinned: discover tried apart
    (["--era", "dual"], "2026-07-28", "dual-era", "dual-era", None),
])
def test_the_era_comes_from_both_handshakes(
    tmp_path: Path, flags: list[str], protocol: str, declared: str, era: str, level: str | None,
) -> None:
    suite = write_suite(tmp_path, {"db": stand_in(*flags)},
                        f"lint:\n  era: {{db: {declared}}}\n")
    suite.write_text(suite.read_text().replace(
        "    inherit_env: true\n", f"    inherit_env: true\n    protocol: {protocol}\n"))
    code, report = lint(suite, tmp_path)
    assert report["servers"][0]["era"] == era
    hits = findings(report, "era-mismatch")
    assert [h["level"] for h in hits] == ([level] if level else [])
    if level:
        assert hits[0]["message"].startswith(f"declared {declared} (lint.era) but the server "
                                             f"is {era}")
    assert code == (1 if level == "error" else 0)


def test_discover_that_lists_a_handshake_version_initialize_refuses(tmp_path: Path) -> None:
    argv = stand_in("--era", "modern", "--advertise", "2026-07-28,2025-11-25")
    code, report = lint(write_suite(tmp_path, {"db": argv}), tmp_path)
    (hit,) = findings(report, "era-mismatch")
    assert hit["level"] == "warning"
    assert "server/discover lists 2025-11-25 but the initialize handshake was refused" in \
        hit["message"]
    assert report["servers"][0]["era"] == "modern" and code == 0


def test_lint_era_must_name_a_server_of_the_suite(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    from mcptest.cli.main import main

    suite = write_suite(tmp_path, {"db": stand_in()}, "lint:\n  era: {dbb: modern}\n")
    assert main(["lint", str(suite)]) == 2
    assert "lint.era names `dbb`, which is not a server of this suite" in capsys.readouterr().err


@pytest.mark.parametrize("era", ["legacy", "modern"])
@pytest.mark.parametrize(("flag", "fires"), [("--elicit-secret", True), ("--elicit-name", False)])
def test_a_form_elicitation_asking_for_a_secret(
    tmp_path: Path, era: str, flag: str, fires: bool,
) -> None:
    calls = ("lint:\n  call_tools: true\n"
             "tools:\n  - {name: sign up, server: db, tool: sign_up}\n")
    code, report = lint(write_suite(tmp_path, {"db": stand_in("--era", era, flag)}, calls),
                        tmp_path)
    hits = findings(report, "elicitation-secret")
    assert len(hits) == (1 if fires else 0), report["lint"]["findings"]
    if fires:
        message = hits[0]["message"]
        assert "asks for `password`, `api_key` (" in message
        how = "pushed elicitation/create" if era == "legacy" else \
            "inputRequests['signup'] of the tools/call result"
        assert how in message and "'Finish signing up'" in message
    assert code == (1 if fires else 0)
