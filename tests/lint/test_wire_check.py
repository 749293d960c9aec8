"""The wire-schema rule and era detection on recorded traffic (run/wire.py's WireLog), fed
through the same entry points the tap uses."""

from __future__ import annotations

from mcp.shared.message import SessionMessage
from mcp_types import JSONRPCNotification, JSONRPCRequest, JSONRPCResponse

from mcptest.lint.wire_check import check_wire, era_of
from mcptest.run.wire import WireLog


def request(log: WireLog, msg_id: int, method: str) -> None:
    log.sent(SessionMessage(JSONRPCRequest(jsonrpc="2.0", id=msg_id, method=method)))


def result(log: WireLog, msg_id: int, body: dict[str, object]) -> None:
    log.received(SessionMessage(JSONRPCResponse(jsonrpc="2.0", id=msg_id, result=body)))


def test_valid_traffic_passes_and_is_counted() -> None:
    log = WireLog()
    request(log, 1, "tools/list")
    result(log, 1, {"tools": [{"name": "a", "inputSchema": {"type": "object"}}]})
    log.received(SessionMessage(JSONRPCNotification(
        jsonrpc="2.0", method="notifications/tools/list_changed")))
    assert check_wire(log, "2025-11-25") == ([], 2)


def test_invalid_result_names_message_and_schema_path() -> None:
    log = WireLog()
    request(log, 7, "tools/list")
    result(log, 7, {"tools": [{"name": "a", "inputSchema": {"type": "array"}}]})
    problems, _ = check_wire(log, "2025-11-25")
    assert len(problems) == 1
    assert problems[0].startswith("message #1 (result of tools/list, id 7) breaks the "
                                  "2025-11-25 schema at ListToolsResult.tools[0].inputSchema.type")


def test_unparsed_lines_are_findings_and_unknown_methods_are_skipped() -> None:
    log = WireLog()
    log.received(ValueError("Invalid JSON: INFO starting work"))
    log.received(SessionMessage(JSONRPCNotification(
        jsonrpc="2.0", method="vendor/custom", params={"x": 1})))
    problems, checked = check_wire(log, "2025-11-25")
    assert problems == ["message #1 (unparsed) is not a JSON-RPC message: "
                        "Invalid JSON: INFO starting work"]
    assert checked == 0


def test_modern_results_are_checked_at_2026_07_28() -> None:
    log = WireLog()
    request(log, 1, "tools/list")
    result(log, 1, {"tools": []})  # 2026-07-28 results must carry resultType and cache hints
    problems, _ = check_wire(log, "2026-07-28")
    assert problems and all("2026-07-28 schema" in p for p in problems)


def test_era_from_the_discover_answer() -> None:
    assert era_of(None, None) is None
    assert era_of(WireLog(), "2025-11-25") == "legacy"
    assert era_of(WireLog(), "2026-07-28") == "modern"
    log = WireLog()
    request(log, 0, "server/discover")
    result(log, 0, {"supportedVersions": ["2025-11-25", "2026-07-28"]})
    assert era_of(log, "2026-07-28") == "dual-era"
