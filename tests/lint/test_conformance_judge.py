"""Each conformance judge on recorded traffic: a true-positive and a true-negative fixture per
rule (tests/lint/fixtures/conformance.json), and the rules' spec references."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCResponse

from mcptest.lint import conformance_judge
from mcptest.lint.conformance_probes import arguments
from mcptest.lint.conformance_rules import CONFORMANCE_RULES
from mcptest.lint.rules import RULES
from mcptest.lint.wire_check import check_wire, stdout_problems
from mcptest.run.wire import WireLog

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent / "fixtures" / "conformance.json").read_text(encoding="utf-8"))["cases"]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["rule"])
def test_each_judge_finds_its_fault_and_passes_conforming_traffic(case: dict[str, Any]) -> None:
    judge = getattr(conformance_judge, case["judge"])
    assert judge(**case["finding"])
    assert not judge(**case["silent"])


def test_every_traffic_rule_has_fixtures() -> None:
    covered = {c["rule"] for c in CASES} | {"stdio-stdout", "dual-era-consistency"}
    traffic = {r for r, *_ in CONFORMANCE_RULES if not r.startswith("auth-")}
    assert traffic <= covered


def test_stdout_lines_that_are_no_message_are_stdio_stdouts_not_wire_schemas() -> None:
    log = WireLog()
    log.received(ValueError("Invalid JSON: INFO starting work"))
    assert stdout_problems(log) == ["message #1 (unparsed) is not a JSON-RPC message: "
                                    "Invalid JSON: INFO starting work"]
    assert check_wire(log, "2026-07-28", stdio=True) == ([], 0)
    clean = WireLog()
    clean.received(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=1, result={})))
    assert stdout_problems(clean) == []


def test_two_handshakes_listing_other_schemas_differ() -> None:
    modern = [{"name": "echo", "inputSchema": {"type": "object",
                                               "properties": {"text": {"type": "string"}}}}]
    legacy = [{"name": "echo", "inputSchema": {"type": "object",
                                               "properties": {"text": {"type": "integer"}}}}]
    assert conformance_judge.listing_difference(modern, legacy) == "other schemas for echo"
    assert conformance_judge.listing_difference(modern, json.loads(json.dumps(modern))) is None


def test_sweep_arguments_follow_the_schema() -> None:
    tool = {"inputSchema": {"type": "object", "required": ["q", "n", "mode", "tags"],
                            "properties": {"q": {"type": "string", "examples": ["cats"]},
                                           "n": {"type": "integer"},
                                           "mode": {"enum": ["fast", "full"]},
                                           "tags": {"type": ["array", "null"]},
                                           "limit": {"type": "integer"}}}}
    assert arguments(tool) == {"q": "cats", "n": 1, "mode": "fast", "tags": []}


@pytest.mark.parametrize("rule", [r for r, *_ in CONFORMANCE_RULES])
def test_each_conformance_rule_cites_its_spec_section(rule: str) -> None:
    info = RULES[rule].info()
    assert info.spec and info.spec_url and info.spec_url.startswith("https://")
    assert info.help_uri.endswith(f"docs/conformance.md#{rule}")
    doc = (Path(__file__).parents[2] / "docs" / "conformance.md").read_text(encoding="utf-8")
    assert f"### {rule}\n" in doc and info.spec in doc
