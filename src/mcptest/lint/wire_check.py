"""The wire-schema rule and era detection, over a connection's recorded traffic (run/wire.py).

Each message is validated with the MCP SDK's published per-version wire models
(`mcp_types.methods`, generated from the official `schema/<version>.json`), never a hand-written
copy: results against the schema of the request they answer, notifications and server requests
against theirs, all at the negotiated version (docs/lint.md#wire-schema).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

from mcp_types import methods
from mcp_types.version import (
    HANDSHAKE_PROTOCOL_VERSIONS,
    LATEST_HANDSHAKE_VERSION,
    MODERN_PROTOCOL_VERSIONS,
)
from pydantic import ValidationError

if TYPE_CHECKING:
    from mcptest.run.wire import WireLog, WireMessage

INPUT_REQUIRED_METHODS = ("tools/call", "prompts/get", "resources/read")

Era = Literal["legacy", "modern", "dual-era"]
MAX_ERRORS_PER_MESSAGE = 3


def _schema_name(method: str, version: str, kind: str) -> str:
    table: Any = {"result": methods.SERVER_RESULTS, "notification": methods.SERVER_NOTIFICATIONS,
                  "request": methods.SERVER_REQUESTS}[kind]
    target = table.get((method, version))
    return getattr(target, "__name__", None) or str(target).rsplit(".", 1)[-1]


def _path(loc: tuple[Any, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out.lstrip(".") or "(root)"


def _version_for(message: WireMessage, negotiated: str) -> str:
    if message.method == "server/discover":
        return MODERN_PROTOCOL_VERSIONS[-1]
    if message.method == "initialize":
        claimed = message.body.get("protocolVersion")
        return claimed if claimed in HANDSHAKE_PROTOCOL_VERSIONS else LATEST_HANDSHAKE_VERSION
    return negotiated


def _validate(message: WireMessage, version: str) -> None:
    """Raise ValidationError when the message breaks its schema; KeyError when none applies."""
    method = message.method or ""
    if message.kind == "result":
        methods.validate_server_result(method, version, message.body)
    elif message.kind == "notification":
        methods.parse_server_notification(method, version, message.body or None)
    elif message.kind == "request":
        methods.parse_server_request(method, version, message.body or None)
    else:
        raise KeyError(message.kind)


def _label(message: WireMessage) -> str:
    return (f"message #{message.index + 1} ({message.kind}"
            + (f" of {message.method}" if message.method else "")
            + (f", id {message.request_id}" if message.request_id is not None else "") + ")")


def stdout_problems(log: WireLog) -> list[str]:
    """`stdio-stdout`: what a stdio server wrote on stdout that is no JSON-RPC message."""
    return [f"{_label(m)} is not a JSON-RPC message: {m.body['text'][:200]}"
            for m in log.messages if m.kind == "unparsed"]


def check_wire(log: WireLog, negotiated: str | None, *,
               stdio: bool = False) -> tuple[list[str], int]:
    """Problems (one line each, naming the message and the schema path) and messages checked.

    On stdio, lines that are no JSON-RPC message are `stdio-stdout`'s (`stdout_problems`)."""
    problems: list[str] = []
    checked = 0
    version = negotiated or LATEST_HANDSHAKE_VERSION
    for message in log.messages:
        label = _label(message)
        if message.kind == "unparsed":
            if stdio:
                continue
            problems.append(f"{label} is not a JSON-RPC message: {message.body['text'][:200]}")
            continue
        if message.kind == "error" or message.method is None:
            continue  # the SDK already parsed the error envelope; nothing more is published
        if message.kind == "result" and message.body.get("resultType") == "input_required" \
                and message.method not in INPUT_REQUIRED_METHODS:
            continue  # input-required-method's finding (docs/conformance.md)
        at = _version_for(message, version)
        try:
            _validate(message, at)
        except ValidationError as e:
            schema = _schema_name(message.method, at, message.kind)
            for err in e.errors()[:MAX_ERRORS_PER_MESSAGE]:
                problems.append(f"{label} breaks the {at} schema at {schema}."
                                f"{_path(tuple(err['loc']))}: {err['msg']}")
        except (KeyError, ValueError):
            continue  # a method this version does not define (vendor extension): not ours
        checked += 1
    return problems, checked


def era_of(log: WireLog | None, negotiated: str | None) -> Era | None:
    """legacy (initialize only), modern (2026-07-28 only) or dual-era (discover advertises both)."""
    if negotiated is None:
        return None
    if negotiated not in MODERN_PROTOCOL_VERSIONS:
        return "legacy"
    for message in (log.messages if log else []):
        if message.kind == "result" and message.method == "server/discover":
            versions = message.body.get("supportedVersions")
            if isinstance(versions, list) and any(v in HANDSHAKE_PROTOCOL_VERSIONS
                                                  for v in versions):
                return "dual-era"
    return "modern"
