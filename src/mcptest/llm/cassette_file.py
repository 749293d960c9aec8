"""One model cassette on disk: a test's recorded model requests and their answers, as one small,
stable JSON file meant to be committed and reviewed (docs/cassettes.md, "The file").

A request is kept as it was sent, redacted (`kind`, `model`, `messages`, `tools`, `params`); its
key is the SHA-256 of that canonical form, computed again on reading, so the file holds no
digest to go stale. Two things keep it small: a tool list is written once in `tools` and named
by its digest, and a request that continues an earlier one (an agent's next turn) names it in
`after` and holds only the messages it adds. The same bytes come out for the same answers:
keys sorted, requests in the order (kind, model, message count, key), the answers to one
request sorted, two-space indents.

A cassette is read back like every other file mcptest reads (`mcptest.readback`): a regular
file, bounded in bytes and nesting, validated against its shape.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from mcptest.errors import ReadBackError
from mcptest.readback.files import decode_utf8, read_regular
from mcptest.readback.json_bounds import JsonLimits, check_json

FORMAT = 1
MAX_BYTES = 16 << 20
LIMITS = JsonLimits(max_depth=96, max_values=2_000_000)


def canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def key_of(request: dict[str, Any]) -> str:
    """The request's key: SHA-256 of its canonical JSON (it is already redacted)."""
    return hashlib.sha256(canonical(request).encode()).hexdigest()


@dataclass
class CassetteExchange:
    """One distinct request and every answer it got, in the order they came."""

    request: dict[str, Any]
    replies: list[dict[str, Any]] = field(default_factory=list)

    @property
    def key(self) -> str:
        return key_of(self.request)


@dataclass
class Recording:
    test: str
    definition: str
    """The test's definition hash when it was recorded: another one makes the cassette stale."""
    exchanges: list[CassetteExchange] = field(default_factory=list)


class _Entry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    kind: Literal["judge", "chat"]
    model: str
    params: dict[str, Any] = Field(default_factory=dict)
    tools: str | None = None
    after: int | None = Field(default=None, ge=0)
    messages: list[dict[str, Any]] = Field(default_factory=list)
    replies: list[dict[str, Any]] = Field(min_length=1)


class _File(BaseModel):
    model_config = ConfigDict(extra="forbid")

    mcptest_cassette: Literal[1]
    test: str
    definition: str
    tools: dict[str, list[dict[str, Any]]] = Field(default_factory=dict)
    requests: list[_Entry] = Field(default_factory=list)


def _order(e: CassetteExchange) -> tuple[str, str, int, str]:
    r = e.request
    return (r["kind"], r["model"], len(r["messages"]), e.key)


def cassette_text(rec: Recording) -> str:
    """The file's text (the same recording gives the same bytes)."""
    exchanges = sorted(rec.exchanges, key=_order)
    tools: dict[str, list[dict[str, Any]]] = {}
    entries: list[dict[str, Any]] = []
    for i, e in enumerate(exchanges):
        r = e.request
        # sorted: the same request sent at once several times answers in any order, and the
        # same answers must give the same bytes (a replay hands them out in this order)
        entry: dict[str, Any] = {"kind": r["kind"], "model": r["model"], "params": r["params"],
                                 "replies": sorted(e.replies, key=canonical)}
        if r["tools"]:
            name = hashlib.sha256(canonical(r["tools"]).encode()).hexdigest()[:12]
            tools[name] = r["tools"]
            entry["tools"] = name
        messages = r["messages"]
        after = max((j for j in range(i) if _prefix(exchanges[j].request["messages"], messages)),
                    key=lambda j: len(exchanges[j].request["messages"]), default=None)
        if after is not None:
            entry["after"] = after
            messages = messages[len(exchanges[after].request["messages"]):]
        entry["messages"] = messages
        entries.append(entry)
    doc = {"mcptest_cassette": FORMAT, "test": rec.test, "definition": rec.definition,
           "tools": tools, "requests": entries}
    return json.dumps(doc, sort_keys=True, ensure_ascii=False, indent=2) + "\n"


def _prefix(short: list[Any], long: list[Any]) -> bool:
    return 0 < len(short) < len(long) and long[:len(short)] == short


def read(path: Path, shown: str) -> Recording:
    """The recording in `path`; `ReadBackError` for a file that is not a cassette."""
    raw = read_regular(path, shown, max_bytes=MAX_BYTES, kind="a model cassette")
    check_json(raw, shown, LIMITS)
    try:
        doc = _File.model_validate_json(decode_utf8(raw, shown))
    except ValidationError as e:
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise ReadBackError(f"not a model cassette: {first['msg']}", shown, path=where) from None
    full: list[list[dict[str, Any]]] = []
    exchanges = []
    for i, entry in enumerate(doc.requests):
        if entry.after is not None and entry.after >= i:
            raise ReadBackError("`after` must name an earlier request", shown,
                                path=f"requests.{i}.after")
        if entry.tools is not None and entry.tools not in doc.tools:
            raise ReadBackError(f"no tool list {entry.tools!r} in `tools`", shown,
                                path=f"requests.{i}.tools")
        messages = (full[entry.after] if entry.after is not None else []) + entry.messages
        full.append(messages)
        request = {"kind": entry.kind, "model": entry.model, "messages": messages,
                   "tools": doc.tools[entry.tools] if entry.tools else [],
                   "params": entry.params}
        exchanges.append(CassetteExchange(request, list(entry.replies)))
    return Recording(doc.test, doc.definition, exchanges)
