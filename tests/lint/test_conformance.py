"""The conformance checks against real servers (docs/conformance.md): the project's faulty
server is caught, over stdio and Streamable HTTP, by exactly the rule of its fault; it passes
every check without one; so does a server on the official Python SDK."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from support.servers import free_port

from mcptest.cli.main import main
from mcptest.lint.conformance_rules import CONFORMANCE_RULES

pytestmark = pytest.mark.slow  # starts servers, several times each

SUPPORT = Path(__file__).resolve().parents[1] / "support"
FAULTY = str(SUPPORT / "nonconforming_server.py")
SDK = str(SUPPORT / "conforming_server.py")
TRAFFIC = [r for r, *_ in CONFORMANCE_RULES if not r.startswith("auth-")]
STDIO_ONLY = {"cancelled-request-answered", "stdio-stdout"}
SINGLE_ERA = {"dual-era-consistency"}


def suite(tmp_path: Path, argv: list[str], http: bool) -> Path:
    if http:
        port = free_port()
        server = {"url": f"http://127.0.0.1:{port}/mcp",
                  "start": {"command": [*argv, "--http", "--port", str(port)]}}
    else:
        server = {"command": argv}
    path = tmp_path / "suite.yml"
    path.write_text(json.dumps({"servers": {"s": server}, "lint": {"conformance": True}}),
                    encoding="utf-8")
    return path


def lint(path: Path) -> tuple[int, dict[str, Any]]:
    out = path.parent / "lint.json"
    code = main(["lint", str(path), "--reporter", "json", "--output", str(out)])
    return code, json.loads(out.read_text(encoding="utf-8"))


def statuses(report: dict[str, Any]) -> dict[str, str]:
    return {c["rule"]: c["status"] for c in report["lint"]["checks"]}


def errors(report: dict[str, Any]) -> set[str]:
    return {f["rule"] for f in report["lint"]["findings"] if f["level"] == "error"}


CASES = [pytest.param(f, False, id=f"stdio-{f}") for f in TRAFFIC] + [
    pytest.param(f, True, id=f"http-{f}") for f in TRAFFIC if f not in STDIO_ONLY]


@pytest.mark.parametrize(("fault", "http"), CASES)
def test_each_fault_is_caught_by_exactly_its_rule(tmp_path: Path, fault: str,
                                                  http: bool) -> None:
    code, report = lint(suite(tmp_path, [sys.executable, FAULTY, "--fault", fault], http))
    assert errors(report) == {fault}
    failed = {r for r, s in statuses(report).items() if s == "failed"}
    assert failed == {fault}
    assert code == 1


@pytest.mark.parametrize("http", [False, True], ids=["stdio", "http"])
def test_the_faultless_server_passes_every_check(tmp_path: Path, http: bool) -> None:
    code, report = lint(suite(tmp_path, [sys.executable, FAULTY], http))
    assert report["lint"]["findings"] == []
    skipped = STDIO_ONLY | SINGLE_ERA if http else SINGLE_ERA
    assert statuses(report) == {r: "skipped" if r in skipped else "passed" for r in TRAFFIC}
    assert code == 0


@pytest.mark.parametrize("http", [False, True], ids=["stdio", "http"])
def test_a_server_on_the_official_sdk_passes_every_check(tmp_path: Path, http: bool) -> None:
    code, report = lint(suite(tmp_path, [sys.executable, SDK], http))
    assert errors(report) == set()
    skipped = STDIO_ONLY if http else set()
    assert statuses(report) == {r: "skipped" if r in skipped else "passed" for r in TRAFFIC}
    assert code == 0
